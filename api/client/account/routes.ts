import * as quotas from './quotas.js';
import * as show from './show.js';
import * as usage from './usage.js';

export const accountRoutes = [show, quotas, usage];

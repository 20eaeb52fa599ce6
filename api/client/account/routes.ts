import * as quotas from './quotas.js';
import * as show from './show.js';

export const accountRoutes = [show, quotas];

import * as create from './create.js';
import * as remove from './delete.js';
import * as list from './list.js';

export const scheduledActionRoutes = [list, create, remove];

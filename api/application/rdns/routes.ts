import * as list from './list.js';
import * as set from './set.js';

export const reverseDnsRoutes = [list, set];

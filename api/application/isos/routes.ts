import * as list from './list.js';

export const isoRoutes = [list];

import * as list from './list.js';

export const usageRoutes = [list];

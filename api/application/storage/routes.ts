import * as list from './list.js';

export const storageRoutes = [list];

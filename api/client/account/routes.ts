import * as show from './show.js';

export const accountRoutes = [show];

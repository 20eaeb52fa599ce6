import * as show from './show.js';

export const overviewRoutes = [show];

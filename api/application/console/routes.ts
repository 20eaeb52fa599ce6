import * as list from './list.js';
import * as revoke from './revoke.js';
import * as show from './show.js';

export const consoleSessionRoutes = [list, show, revoke];

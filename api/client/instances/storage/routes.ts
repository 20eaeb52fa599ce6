import * as rootResize from './root-resize.js';
import * as show from './show.js';

export const storageRoutes = [show, rootResize];

import * as add from './add.js';
import * as list from './list.js';

export const mediaRoutes = [list, add];

import * as enter from './enter.js';
import * as exit from './exit.js';
import * as show from './show.js';

export const rescueRoutes = [show, enter, exit];

import * as attach from './attach.js';
import * as detach from './detach.js';
import * as list from './list.js';
import * as move from './move.js';

export const floatingIpRoutes = [list, attach, detach, move];

import * as attach from './attach.js';
import * as create from './create.js';
import * as remove from './delete.js';
import * as detach from './detach.js';
import * as list from './list.js';
import * as resize from './resize.js';
import * as show from './show.js';

export const volumeRoutes = [list, create, show, remove, attach, detach, resize];

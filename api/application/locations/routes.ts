import * as capacity from './capacity.js';
import * as create from './create.js';
import * as remove from './delete.js';
import * as list from './list.js';
import * as show from './show.js';
import * as update from './update.js';

export const locationRoutes = [list, create, show, update, remove, capacity];

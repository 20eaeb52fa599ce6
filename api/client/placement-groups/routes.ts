import * as create from './create.js';
import * as remove from './delete.js';
import * as list from './list.js';
import * as show from './show.js';

export const placementGroupRoutes = [list, create, show, remove];

import * as create from './create.js';
import * as remove from './delete.js';
import * as list from './list.js';
import * as restore from './restore.js';

export const snapshotRoutes = [list, create, restore, remove];

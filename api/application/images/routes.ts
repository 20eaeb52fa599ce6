import * as create from './create.js';
import * as remove from './delete.js';
import * as list from './list.js';
import * as show from './show.js';
import * as update from './update.js';
import * as createVersion from './versions/create.js';
import * as removeVersion from './versions/delete.js';
import * as distributeVersion from './versions/distribute.js';
import * as listVersions from './versions/list.js';
import * as listRemovals from './versions/removals.js';
import * as showVersion from './versions/show.js';
import * as updateVersion from './versions/update.js';

export const imageRoutes = [
  list,
  create,
  show,
  update,
  remove,
  listVersions,
  createVersion,
  showVersion,
  updateVersion,
  removeVersion,
  distributeVersion,
  listRemovals,
];

import * as create from './create.js';
import * as setCredential from './credential.js';
import * as remove from './delete.js';
import * as list from './list.js';
import * as rotate from './rotate.js';
import * as showRun from './run-show.js';
import * as listRuns from './runs-list.js';
import * as show from './show.js';
import * as sync from './sync.js';
import * as test from './test.js';
import * as update from './update.js';

export const providerRoutes = [
  list,
  create,
  show,
  update,
  remove,
  setCredential,
  rotate,
  test,
  sync,
  listRuns,
  showRun,
];

import * as activity from './activity.js';
import * as create from './create.js';
import * as remove from './delete.js';
import * as diagnostics from './diagnostics.js';
import * as list from './list.js';
import * as metrics from './metrics.js';
import * as power from './power.js';
import * as rebuild from './rebuild.js';
import * as show from './show.js';
import * as ssh from './ssh.js';
import * as tasks from './tasks.js';

/** The instance itself; its settings, backups, network and the rest are groups of their own. */
export const instanceRoutes = [
  list,
  create,
  show,
  remove,
  power,
  rebuild,
  metrics,
  activity,
  tasks,
  diagnostics,
  ssh,
];

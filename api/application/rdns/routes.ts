import * as list from './list.js';
import * as resync from './resync.js';
import * as resyncState from './resync-state.js';
import * as set from './set.js';
import * as withdrawals from './withdrawals.js';

export const reverseDnsRoutes = [list, set, resync, resyncState, withdrawals];

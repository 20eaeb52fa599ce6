import * as create from './create.js';
import * as remove from './delete.js';
import * as list from './list.js';
import * as protect from './protect.js';
import * as restore from './restore.js';
import * as restoreAsNew from './restore-new.js';
import * as verify from './verify.js';

export const backupRoutes = [list, create, restore, restoreAsNew, verify, protect, remove];

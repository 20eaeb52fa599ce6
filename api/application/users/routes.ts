import * as create from './create.js';
import * as createKey from './keys-create.js';
import * as listKeys from './keys-list.js';
import * as revokeKey from './keys-revoke.js';
import * as list from './list.js';
import * as show from './show.js';
import * as update from './update.js';

export const userRoutes = [list, create, show, update, listKeys, createKey, revokeKey];

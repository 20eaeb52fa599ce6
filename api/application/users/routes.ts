import * as create from './create.js';
import * as showByExternalId from './external-show.js';
import * as createKey from './keys-create.js';
import * as listKeys from './keys-list.js';
import * as pinKey from './keys-pin.js';
import * as revokeKey from './keys-revoke.js';
import * as list from './list.js';
import * as replaceQuotas from './quotas-replace.js';
import * as showQuotas from './quotas-show.js';
import * as show from './show.js';
import * as update from './update.js';

// By external id before the routes of one user: `/users/external/keys` is an external id `keys`,
// not the keys of a user `external`.
export const userRoutes = [
  list,
  create,
  showByExternalId,
  show,
  update,
  listKeys,
  createKey,
  pinKey,
  revokeKey,
  showQuotas,
  replaceQuotas,
];

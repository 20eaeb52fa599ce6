import * as createInstance from './create.js';
import * as deleteInstance from './delete.js';
import * as showByExternalId from './external-show.js';
import * as setHostRequirements from './host-requirements.js';
import * as listInstances from './list.js';
import * as power from './power.js';
import * as resize from './resize.js';
import * as showInstance from './show.js';
import * as suspend from './suspend.js';
import * as unsuspend from './unsuspend.js';
import * as updateInstance from './update.js';

// By external id before the routes of one instance: `/instances/external/firewall` is an external
// id `firewall`, not the firewall of an instance `external`.
export const instanceRoutes = [
  listInstances,
  createInstance,
  showByExternalId,
  showInstance,
  updateInstance,
  deleteInstance,
  power,
  resize,
  suspend,
  unsuspend,
  setHostRequirements,
];

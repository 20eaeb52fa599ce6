import * as createInstance from './create.js';
import * as deleteInstance from './delete.js';
import * as setHostRequirements from './host-requirements.js';
import * as listInstances from './list.js';
import * as power from './power.js';
import * as showInstance from './show.js';
import * as suspend from './suspend.js';
import * as unsuspend from './unsuspend.js';

export const instanceRoutes = [
  listInstances,
  createInstance,
  showInstance,
  deleteInstance,
  power,
  suspend,
  unsuspend,
  setHostRequirements,
];

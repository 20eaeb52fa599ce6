import * as create from './create.js';
import * as remove from './delete.js';
import * as setHostRequirements from './host-requirements.js';
import * as list from './list.js';
import * as show from './show.js';
import * as update from './update.js';

export const planRoutes = [list, create, show, update, remove, setHostRequirements];

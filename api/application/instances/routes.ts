import * as setHostRequirements from './host-requirements.js';

export const instanceRoutes = [setHostRequirements];

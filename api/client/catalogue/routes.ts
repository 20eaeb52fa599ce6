import * as listImages from '../images/list.js';
import * as listLocations from './locations.js';
import * as listPlans from './plans.js';

export const catalogueRoutes = [listImages, listPlans, listLocations];

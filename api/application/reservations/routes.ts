import * as addresses from './addresses.js';
import * as capacity from './capacity.js';

export const reservationRoutes = [capacity, addresses];

import * as show from './show.js';

export const firewallRoutes = [show];

import * as createGatewayCredential from './gateway-credentials-create.js';
import * as listGatewayCredentials from './gateway-credentials-list.js';
import * as revokeGatewayCredential from './gateway-credentials-revoke.js';
import * as list from './list.js';
import * as revoke from './revoke.js';
import * as show from './show.js';

export const consoleSessionRoutes = [
  list,
  show,
  revoke,
  listGatewayCredentials,
  createGatewayCredential,
  revokeGatewayCredential,
];

import { listPrivateNetworks } from '../../../db/repositories/network/private-networks.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import {
  AdminPrivateNetworkEnvelope,
  serializeAdminPrivateNetwork,
} from '../../../wire/serializers/network/private-network.js';
import { ownerListRoute } from '../owner-list-route.js';

export const { register } = ownerListRoute({
  method: 'get',
  path: '/networks',
  tag: 'Networks',
  summary: 'List private networks',
  description:
    'Every customer’s private networks, oldest first, with how many instances are on each; paginated.',
  responses: {
    200: jsonContent(
      listEnvelope(AdminPrivateNetworkEnvelope, 'AdminPrivateNetworkList'),
      'A page of networks.',
    ),
    ...commonErrors,
  },
  list: listPrivateNetworks,
  serialize: serializeAdminPrivateNetwork,
});

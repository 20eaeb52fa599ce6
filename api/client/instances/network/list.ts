import { listInstanceAddressPage } from '../../../../db/repositories/network/instance-addresses.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../../wire/schemas.js';
import { IpAddressEnvelope, serializeIpAddress } from '../../../../wire/serializers/network/ip-address.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  method: 'get',
  path: '/{cloudInstance}/network/ips',
  tag: 'Network',
  summary: 'The instance’s addresses',
  description:
    'IPv4 first, then IPv6; the primary of each family first, then by address. Attached floating IPs ' +
    'are listed with `kind: floating`.',
  responses: {
    200: jsonContent(listEnvelope(IpAddressEnvelope, 'IpAddressList'), 'A page of addresses.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listInstanceAddressPage,
  serialize: serializeIpAddress,
});

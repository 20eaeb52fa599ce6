import { listInstanceAddressPage } from '../../../../db/repositories/instance-addresses.js';
import { IpAddressEnvelope, serializeIpAddress } from '../../../../wire/serializers/ip-address.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  things: 'network/ips',
  tag: 'Network',
  summary: 'The instance’s addresses',
  description:
    'IPv4 first, then IPv6; the primary of each family first, then by address. Attached floating IPs ' +
    'are listed with `kind: floating`.',
  item: IpAddressEnvelope,
  listName: 'IpAddressList',
  page: 'A page of addresses.',
  read: listInstanceAddressPage,
  serialize: serializeIpAddress,
});

import { listFloatingIps } from '../../../db/repositories/network/floating-ips.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import {
  AdminFloatingIpEnvelope,
  serializeAdminFloatingIp,
} from '../../../wire/serializers/network/floating-ip.js';
import { ownerListRoute } from '../owner-list-route.js';

export const { register } = ownerListRoute({
  method: 'get',
  path: '/floating-ips',
  tag: 'Floating IPs',
  summary: 'List floating IPs',
  description: 'Every customer’s floating IPs, oldest first, with the instance each is on; paginated.',
  responses: {
    200: jsonContent(listEnvelope(AdminFloatingIpEnvelope, 'AdminFloatingIpList'), 'A page of floating IPs.'),
    ...commonErrors,
  },
  list: listFloatingIps,
  serialize: serializeAdminFloatingIp,
});

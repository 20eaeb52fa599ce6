import { deleteFloatingIp } from '../../../services/networks/floating-ip-stock.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  resources: 'floating-ips',
  param: 'floatingIp',
  tag: 'Floating IPs',
  summary: 'Take a floating IP back',
  description:
    'The address goes back to its pool. Refused while it is on an instance: its owner detaches it first.',
  held: 'The floating IP is on an instance',
  remove: deleteFloatingIp,
});

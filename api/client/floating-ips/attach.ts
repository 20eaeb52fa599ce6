import { attachFloatingIp } from '../../../services/networks/floating-ips.js';
import { floatingIpAction } from './action-route.js';

export const { register } = floatingIpAction({
  action: 'attach',
  summary: 'Attach a floating IP to an instance',
  description:
    'An idle floating IP goes onto one of the caller’s instances in its location (an operation of that ' +
    'instance, `floating_ip_attach`): `attaching`, then `attached`; idle again if the hypervisor failed. ' +
    'Attaching it to the instance it is on answers 200.',
  run: attachFloatingIp,
});

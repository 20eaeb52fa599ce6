import { detachFloatingIp } from '../../../services/networks/floating-ips.js';
import { floatingIpAction } from './action-route.js';

export const { register } = floatingIpAction({
  action: 'detach',
  summary: 'Detach a floating IP',
  description:
    'Takes the floating IP off its instance (an operation of that instance, `floating_ip_detach`); it ' +
    'stays the caller’s, `idle`. An idle one answers 200.',
  run: (deps, asker, request) => detachFloatingIp(deps, asker, request),
});

import { moveFloatingIp } from '../../../services/networks/floating-ips.js';
import { floatingIpAction } from './action-route.js';

export const { register } = floatingIpAction({
  action: 'move',
  summary: 'Move a floating IP to another instance',
  description:
    'One operation of the instance that gains it (`floating_ip_move`): the old instance’s hypervisor lets ' +
    'it go, then the new one takes it, and the brief interruption between the two is recorded in the ' +
    'operation (`interruption_ms` in the activity log). If the new hypervisor fails, the address goes back ' +
    'to the old instance. Moving it to the instance it is on answers 200; a move off an instance being migrated is ' +
    'refused with `INSTANCE_MIGRATING`.',
  run: moveFloatingIp,
});

import { moveFloatingIp } from '../../../services/networks/floating-ips.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { FloatingIpEnvelope } from '../../../wire/serializers/network/floating-ip.js';
import { FLOATING_IP_ACCEPTED, FLOATING_IP_CONFLICTS, FLOATING_IP_UNCHANGED } from './answers.js';
import { floatingIpPlaceRoute } from './place-route.js';

export const { register } = floatingIpPlaceRoute({
  method: 'post',
  path: '/floating-ips/{cloudIpAddress}/move',
  summary: 'Move a floating IP to another instance',
  description:
    'One operation of the instance that gains it (`floating_ip_move`): the old instance’s hypervisor lets ' +
    'it go, then the new one takes it, and the brief interruption between the two is recorded in the ' +
    'operation (`interruption_ms` in the activity log). If the new hypervisor fails, the address goes back ' +
    'to the old instance. Moving it to the instance it is on answers 200; a move off an instance being migrated is ' +
    'refused with `INSTANCE_MIGRATING`.',
  responses: {
    200: jsonContent(FloatingIpEnvelope, FLOATING_IP_UNCHANGED),
    202: jsonContent(FloatingIpEnvelope, FLOATING_IP_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FLOATING_IP_CONFLICTS),
    ...workflowUnavailableResponse,
  },
  place: moveFloatingIp,
});

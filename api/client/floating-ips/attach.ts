import { attachFloatingIp } from '../../../services/networks/floating-ips.js';
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
  path: '/floating-ips/{cloudIpAddress}/attach',
  summary: 'Attach a floating IP to an instance',
  description:
    'An idle floating IP goes onto one of the caller’s instances in its location (an operation of that ' +
    'instance, `floating_ip_attach`): `attaching`, then `attached`; idle again if the hypervisor failed. ' +
    'Attaching it to the instance it is on answers 200.',
  responses: {
    200: jsonContent(FloatingIpEnvelope, FLOATING_IP_UNCHANGED),
    202: jsonContent(FloatingIpEnvelope, FLOATING_IP_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FLOATING_IP_CONFLICTS),
    ...workflowUnavailableResponse,
  },
  place: attachFloatingIp,
});

import { detachFromPrivateNetwork } from '../../../services/networks/private-network-nics.js';
import { commonErrors, notFoundResponse, workflowUnavailableResponse } from '../../../wire/schemas.js';
import { networkAsItWas, nicChanging, privateNetworkAction, privateNetworkRefused } from './action-route.js';

export const { register } = privateNetworkAction({
  action: 'detach',
  method: 'post',
  path: '/private-networks/{cloudNetwork}/detach',
  summary: 'Disconnect an instance from a private network',
  description:
    'The instance’s NIC on the network is `detaching` until its hypervisor has taken it off (an operation ' +
    'of the instance, `network_detach`), then gone; attached again if the hypervisor failed. An instance ' +
    'not on the network answers 200.',
  responses: {
    200: networkAsItWas,
    202: nicChanging,
    ...commonErrors,
    ...notFoundResponse,
    ...privateNetworkRefused,
    ...workflowUnavailableResponse,
  },
  run: detachFromPrivateNetwork,
});

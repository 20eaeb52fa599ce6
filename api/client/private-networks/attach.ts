import { attachToPrivateNetwork } from '../../../services/networks/private-network-nics.js';
import { commonErrors, notFoundResponse, workflowUnavailableResponse } from '../../../wire/schemas.js';
import { networkAsItWas, nicChanging, privateNetworkAction, privateNetworkRefused } from './action-route.js';

export const { register } = privateNetworkAction({
  action: 'attach',
  method: 'post',
  path: '/private-networks/{cloudNetwork}/attach',
  summary: 'Connect an instance to a private network',
  description:
    'The instance gets a NIC on the network, at `address` or the lowest free address of the range: an ' +
    'operation of the instance (`network_attach`) that gives its hypervisor the instance’s whole network. ' +
    'The NIC is `attaching`, then `attached`; it is gone again if the hypervisor failed, and the ' +
    'operation says why. An instance already on the network (at that address) answers 200.',
  responses: {
    200: networkAsItWas,
    202: nicChanging,
    ...commonErrors,
    ...notFoundResponse,
    ...privateNetworkRefused,
    ...workflowUnavailableResponse,
  },
  run: attachToPrivateNetwork,
});

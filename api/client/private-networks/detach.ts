import { detachFromPrivateNetwork } from '../../../services/networks/private-network-nics.js';
import { privateNetworkAction } from './action-route.js';

export const { register } = privateNetworkAction({
  action: 'detach',
  summary: 'Disconnect an instance from a private network',
  description:
    'The instance’s NIC on the network is `detaching` until its hypervisor has taken it off (an operation ' +
    'of the instance, `network_detach`), then gone; attached again if the hypervisor failed. An instance ' +
    'not on the network answers 200.',
  run: detachFromPrivateNetwork,
});

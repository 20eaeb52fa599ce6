import { volumeDelete } from '../../routes-kit/volumes/delete-route.js';

export const { register } = volumeDelete({
  side: 'application',
  description:
    'As its owner would (`DELETE /api/client/cloud/volumes/{cloudVolume}`), logged in their activity with the ' +
    'administrator as the actor: 204 for one never attached, 202 `deleting` while its hypervisor removes it.',
});

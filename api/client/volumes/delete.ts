import { volumeDelete } from '../../routes-kit/volumes/delete-route.js';

export const { register } = volumeDelete({
  side: 'client',
  description:
    'A volume on no instance, its content with it. One never attached goes at once, answered 204. One kept on a ' +
    'hypervisor is `deleting` (202) while the hypervisor removes its disk, then gone, its room let go; if the ' +
    'hypervisor fails, it is `available` again. Detach it first: on an instance it is 409 `SVC-INUSE-409`.',
});

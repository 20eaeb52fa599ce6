import { changeIsoMount } from '../../../../services/media/iso-mounts.js';
import { mediaAction } from './action-route.js';

export const { register } = mediaAction({
  action: 'unmount',
  summary: 'Unmount the ISO',
  description:
    'Empties the instance’s CD-ROM drive: an operation of the instance (`iso_unmount`); the ISO stays in the ' +
    'library. An empty drive answers 200. The body may be left out.',
  run: (deps, asker, request) => changeIsoMount(deps, asker, { ...request, isoId: null }),
});

import { changeIsoMount } from '../../../../services/media/iso-mounts.js';
import { mediaAction } from './action-route.js';

export const { register } = mediaAction({
  action: 'mount',
  summary: 'Mount an ISO',
  description:
    'Puts an `available` ISO of the library in the instance’s CD-ROM drive, in place of what it held: an ' +
    'operation of the instance (`iso_mount`), running or stopped. A running guest sees the medium change at once; ' +
    'a stopped one has it at its next boot. The drive holding it already answers 200.',
  run: (deps, asker, request) => changeIsoMount(deps, asker, { ...request, isoId: request.isoId! }),
});

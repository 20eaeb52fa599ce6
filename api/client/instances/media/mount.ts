import { changeIsoMount } from '../../../../services/media/iso-mounts.js';
import { commonErrors, notFoundResponse, workflowUnavailableResponse } from '../../../../wire/schemas.js';
import { driveAsItWas, driveChanging, mediaAction, mediaRefused } from './action-route.js';

export const { register } = mediaAction({
  action: 'mount',
  method: 'post',
  path: '/{cloudInstance}/media/iso/mount',
  summary: 'Mount an ISO',
  description:
    'Puts an `available` ISO of the library in the instance’s CD-ROM drive, in place of what it held: an ' +
    'operation of the instance (`iso_mount`), running or stopped. A running guest sees the medium change at once; ' +
    'a stopped one has it at its next boot. The drive holding it already answers 200.',
  responses: {
    200: driveAsItWas,
    202: driveChanging,
    ...commonErrors,
    ...notFoundResponse,
    ...mediaRefused,
    ...workflowUnavailableResponse,
  },
  run: (deps, asker, request) => changeIsoMount(deps, asker, { ...request, isoId: request.isoId! }),
});

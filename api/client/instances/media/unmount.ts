import { changeIsoMount } from '../../../../services/media/iso-mounts.js';
import { commonErrors, notFoundResponse, workflowUnavailableResponse } from '../../../../wire/schemas.js';
import { driveAsItWas, driveChanging, mediaAction, mediaRefused } from './action-route.js';

export const { register } = mediaAction({
  action: 'unmount',
  method: 'post',
  path: '/{cloudInstance}/media/iso/unmount',
  summary: 'Unmount the ISO',
  description:
    'Empties the instance’s CD-ROM drive: an operation of the instance (`iso_unmount`); the ISO stays in the ' +
    'library. An empty drive answers 200. The body may be left out.',
  responses: {
    200: driveAsItWas,
    202: driveChanging,
    ...commonErrors,
    ...notFoundResponse,
    ...mediaRefused,
    ...workflowUnavailableResponse,
  },
  run: (deps, asker, request) => changeIsoMount(deps, asker, { ...request, isoId: null }),
});

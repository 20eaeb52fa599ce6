import { bootFromIso } from '../../../../services/media/iso-mounts.js';
import { commonErrors, notFoundResponse, workflowUnavailableResponse } from '../../../../wire/schemas.js';
import { driveAsItWas, driveChanging, mediaAction, mediaRefused } from './action-route.js';

export const { register } = mediaAction({
  action: 'boot',
  method: 'post',
  path: '/{cloudInstance}/media/iso/boot',
  summary: 'Boot from an ISO',
  description:
    'Mounts an `available` ISO of the library and (re)starts the instance from its CD-ROM drive: an operation ' +
    'of the instance (`iso_boot`), `restarting` while it runs, `running` after. A running guest is restarted ' +
    '(not shut down cleanly first: shut it down to keep unsaved work). Its next boot after that is from its ' +
    'disk again; the ISO stays mounted until unmounted.',
  responses: {
    200: driveAsItWas,
    202: driveChanging,
    ...commonErrors,
    ...notFoundResponse,
    ...mediaRefused,
    ...workflowUnavailableResponse,
  },
  run: async (deps, asker, request) => {
    await bootFromIso(deps, asker, { ...request, isoId: request.isoId! });
    return { accepted: true };
  },
});

import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { rescueAction, rescueRestarting } from './action-route.js';

export const { register } = rescueAction({
  action: 'enter',
  method: 'post',
  path: '/{cloudInstance}/rescue/enter',
  summary: 'Enter rescue mode',
  description:
    'Restarts the instance, running or stopped, into its image’s rescue system with its own disk attached ' +
    '(the busybox image’s at `/disk`), without a clean shutdown first: an operation of the instance ' +
    '(`rescue_enter`), `restarting`, then `rescue`. In rescue mode every other operation is refused with ' +
    '409 but leaving it and a delete. An image without a rescue system fails the operation (`NOT_SUPPORTED`), ' +
    'and the instance is as before. The body may be left out.',
  responses: {
    202: rescueRestarting,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The instance’s status does not allow it (SVC-CONFLICT-409: it is not running or stopped, or is in rescue mode already); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

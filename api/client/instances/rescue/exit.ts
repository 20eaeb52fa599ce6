import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { rescueAction, rescueRestarting } from './action-route.js';

export const { register } = rescueAction({
  action: 'exit',
  method: 'post',
  path: '/{cloudInstance}/rescue/exit',
  summary: 'Leave rescue mode',
  description:
    'Restarts the instance from its own disk: an operation of the instance (`rescue_exit`), `restarting`, ' +
    'then `running`. The body may be left out.',
  responses: {
    202: rescueRestarting,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The instance’s status does not allow it (SVC-CONFLICT-409: it is not in rescue mode); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

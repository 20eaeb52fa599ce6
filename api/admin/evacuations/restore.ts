import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { restoreEvacuation } from '../../../services/evacuations/restore.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { EvacuationEnvelope, serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { adminActor } from '../../auth/principals.js';
import { EvacuationRequestBody, policyChangesOfBody } from './fields.js';

const Body = EvacuationRequestBody.partial().openapi('EvacuationRestoreRequest');

const route = createRoute({
  method: 'post',
  path: '/evacuations/{evacuation}/restore',
  tags: ['Evacuations'],
  summary: 'Bring an evacuation’s instances home',
  description:
    'Once the evacuated hypervisor is out of maintenance and online, migrates back to it every instance the ' +
    'evacuation moved: a new evacuation of `kind` `restore` (`restores` names this one) with the evacuation’s ' +
    'policy, each field the body gives replacing the evacuation’s, followed, paused, resumed and cancelled as any ' +
    'evacuation. It lists every instance of the evacuation: one deleted since (`INSTANCE_DELETED`), one the ' +
    'evacuation did not move (`NOT_MOVED`, saying how the evacuation left it) or one no longer on the hypervisor the ' +
    'evacuation moved it to (`MOVED_SINCE`) is left where it is (`cancelled`); one home already is `moved` (`ALREADY_HOME`); one ' +
    'that cannot move is `blocked` with its reasons. Refused, nothing changes. Once a restore has ended another ' +
    'may be asked: it brings home what is still away.',
  request: { params: uuidParam('evacuation'), body: optionalJsonBody(Body) },
  responses: {
    202: jsonContent(EvacuationEnvelope, 'Accepted; the restore, running.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The evacuation is still under way (EVACUATION_NOT_FINISHED), is not a hypervisor’s evacuation that ran ' +
        '(EVACUATION_NOT_RESTORABLE); the hypervisor is in maintenance (HYPERVISOR_IN_MAINTENANCE) or not online ' +
        '(HYPERVISOR_NOT_ONLINE); a drain or a restore of it is under way (EVACUATION_RUNNING).',
    ),
    ...unavailableResponse(
      'The workflow service is unavailable (SVC-SYS-503): the restore is recorded `failed`.',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json') ?? {};
    const deps = c.get('deps');
    const { evacuationId } = await restoreEvacuation(deps, adminActor(c), {
      evacuationId: c.req.valid('param').evacuation,
      policy: policyChangesOfBody(body),
      reason: body.reason,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeShownEvacuation(await showEvacuation(deps, evacuationId)), 202);
  });
}

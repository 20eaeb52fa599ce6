import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { startEvacuation } from '../../../services/evacuations/start.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { EvacuationEnvelope, serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { adminActor } from '../../auth/principals.js';
import { EvacuationRequestBody, policyOfBody } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/evacuations',
  tags: ['Evacuations'],
  summary: 'Start an evacuation',
  description:
    'Puts the hypervisor in maintenance (nothing new lands on it) and drains it: its instances migrate away in the ' +
    'plan’s order, at most `max_parallel` at once and `max_parallel_per_target` into any one target, each by the ' +
    'migration saga (preflight, lease, point of no return, rollback). Each target is chosen when its move starts, ' +
    'by the plan’s rule on the facts of that moment. An instance refused for a reason that passes (another ' +
    'operation on it, a target whose agent missed its heartbeats) is put off and tried again while `max_attempts` ' +
    'allow; one that cannot move is recorded `blocked` with its reasons; a failed move is skipped, retried or pauses the evacuation, by `on_failure`. Follow it with ' +
    '`GET /evacuations/{evacuation}`. The hypervisor stays in maintenance when the evacuation ends.',
  request: { params: uuidParam('hypervisor'), body: jsonBody(EvacuationRequestBody) },
  responses: {
    202: jsonContent(EvacuationEnvelope, 'Accepted; the evacuation, running.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Another evacuation of the hypervisor is under way (EVACUATION_RUNNING).'),
    ...unavailableResponse(
      'The workflow service is unavailable (SVC-SYS-503): the evacuation is recorded `failed` with the failure ' +
        'WORKFLOW_UNAVAILABLE and the hypervisor’s maintenance is put back as it was.',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const deps = c.get('deps');
    const { evacuationId } = await startEvacuation(deps, adminActor(c), {
      hypervisorId: c.req.valid('param').hypervisor,
      policy: policyOfBody(body),
      convergence: body.convergence,
      reason: body.reason,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeShownEvacuation(await showEvacuation(deps, evacuationId)), 202);
  });
}

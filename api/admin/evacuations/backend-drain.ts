import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { startBackendDrain } from '../../../services/evacuations/backend-drain.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { storageMoveFields } from '../../../wire/requests/storage-move-fields.js';
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

const Body = EvacuationRequestBody.omit({ max_parallel_per_target: true })
  .extend({
    from_backend: storageMoveFields.from_backend,
    to_backend: storageMoveFields.to_backend,
  })
  .openapi('BackendDrainRequest');

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/backend-drains',
  tags: ['Evacuations'],
  summary: 'Start draining a storage backend',
  description:
    'Moves every disk on `from_backend` of the hypervisor to `to_backend`: each instance with disks there gets a ' +
    'storage move, at most `max_parallel` at once, with the evacuation’s policy (`on_failure`, `max_attempts`), ' +
    'progress, pause, resume and cancel (`/evacuations/{evacuation}`; its `kind` is `backend`). The hypervisor is ' +
    'not put in maintenance. One drain of a node at a time, of either kind.',
  request: { params: uuidParam('hypervisor'), body: jsonBody(Body) },
  responses: {
    202: jsonContent(EvacuationEnvelope, 'Accepted; the drain, running.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Another drain of the hypervisor is under way (EVACUATION_RUNNING).'),
    ...unavailableResponse(
      'The workflow service is unavailable (SVC-SYS-503): the drain is recorded `failed`.',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const deps = c.get('deps');
    const { evacuationId } = await startBackendDrain(deps, adminActor(c), {
      hypervisorId: c.req.valid('param').hypervisor,
      from: body.from_backend,
      to: body.to_backend,
      policy: policyOfBody(body),
      reason: body.reason,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeShownEvacuation(await showEvacuation(deps, evacuationId)), 202);
  });
}

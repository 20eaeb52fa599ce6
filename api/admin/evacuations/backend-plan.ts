import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { backendDrainPlan } from '../../../services/evacuations/backend-plan.js';
import { storageMoveFields } from '../../../wire/requests/storage-move-fields.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  BackendDrainPlanEnvelope,
  serializeBackendDrainPlan,
} from '../../../wire/serializers/moves/backend-drain-plan.js';
import { z } from '../../../wire/zod.js';

const Body = z.strictObject(storageMoveFields).openapi('BackendDrainPlanRequest');

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/backend-drains/plan',
  tags: ['Evacuations'],
  summary: 'Plan draining a storage backend (read-only)',
  description:
    'The dry run of moving every disk on `from_backend` of the hypervisor to `to_backend`, changing nothing: each ' +
    'instance with disks there judged by the storage move’s preflight (largest first), and every instance that ' +
    'cannot move with every blocker.',
  request: { params: uuidParam('hypervisor'), body: jsonBody(Body) },
  responses: {
    200: jsonContent(BackendDrainPlanEnvelope, 'The plan.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const plan = await backendDrainPlan(c.get('deps'), {
      hypervisorId: c.req.valid('param').hypervisor,
      from: body.from_backend,
      to: body.to_backend,
      mode: body.mode,
    });
    return c.json(serializeBackendDrainPlan(plan), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { evacuationPlan } from '../../../services/evacuations/plan.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  EvacuationPlanEnvelope,
  serializeEvacuationPlan,
} from '../../../wire/serializers/moves/evacuation-plan.js';
import { EvacuationPlanBody } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/evacuations/plan',
  tags: ['Evacuations'],
  summary: 'Plan an evacuation (read-only)',
  description:
    'The dry run of draining the hypervisor, changing nothing: each instance with the target and strategy the ' +
    'migration preflight gives it, judged in turn (largest first) against the plane as the moves before it would ' +
    'leave it, so that the moves spread over the targets by free capacity; and every instance that cannot move, ' +
    'with every reason (its own blockers, or why each hypervisor would not take it).',
  request: { params: uuidParam('hypervisor'), body: jsonBody(EvacuationPlanBody) },
  responses: {
    200: jsonContent(EvacuationPlanEnvelope, 'The plan.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const plan = await evacuationPlan(c.get('deps'), {
      hypervisorId: c.req.valid('param').hypervisor,
      mode: c.req.valid('json').mode,
    });
    return c.json(serializeEvacuationPlan(plan), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { EvacuationEnvelope, serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';

const route = createRoute({
  method: 'get',
  path: '/evacuations/{evacuation}',
  tags: ['Evacuations'],
  summary: 'Show an evacuation',
  description:
    'Its state, policy and progress (how many instances stand where), and each instance in the order the run ' +
    'takes them: its state, attempts, migration and its state, target, and why it is blocked, failed or waits.',
  request: { params: uuidParam('evacuation') },
  responses: {
    200: jsonContent(EvacuationEnvelope, 'The evacuation.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) =>
    c.json(
      serializeShownEvacuation(await showEvacuation(c.get('deps'), c.req.valid('param').evacuation)),
      200,
    ),
  );
}

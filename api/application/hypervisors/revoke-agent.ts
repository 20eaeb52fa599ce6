import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { revokeAgent } from '../../../services/hypervisors/revoke-agent.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/revoke-agent',
  tags: ['Hypervisors'],
  summary: "Revoke the hypervisor's agent credential",
  description:
    'The agent credential (and any unused enrollment token) stops working at once; the hypervisor becomes ' +
    '`revoked` until an agent enrolls again with a new token.',
  request: { params: uuidParam('hypervisor') },
  responses: {
    200: jsonContent(HypervisorEnvelope, 'The hypervisor.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await revokeAgent(
      { db: c.get('deps').db, logger: c.get('logger') },
      { hypervisorId: c.req.valid('param').hypervisor },
    );
    return c.json(serializeHypervisor(row), 200);
  });
}

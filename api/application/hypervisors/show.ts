import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findHypervisor } from '../../../db/repositories/hypervisors/hypervisors.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';

const route = createRoute({
  method: 'get',
  path: '/hypervisors/{hypervisor}',
  tags: ['Hypervisors'],
  summary: 'Show a hypervisor',
  request: { params: uuidParam('hypervisor') },
  responses: {
    200: jsonContent(HypervisorEnvelope, 'The hypervisor.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await findHypervisor(c.get('deps').db, c.req.valid('param').hypervisor);
    if (!row) throw notFound();
    return c.json(serializeHypervisor(row), 200);
  });
}

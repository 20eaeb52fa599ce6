import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { setMaintenance } from '../../../services/hypervisors/maintenance.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';
import { z } from '../../../wire/zod.js';

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/maintenance',
  tags: ['Hypervisors'],
  summary: 'Turn maintenance on or off',
  description:
    'A hypervisor in maintenance is offered no new placements; its agent keeps running the tasks of instances already on it.',
  request: {
    params: uuidParam('hypervisor'),
    body: jsonBody(z.strictObject({ enabled: z.boolean() }).openapi('MaintenanceRequest')),
  },
  responses: {
    200: jsonContent(HypervisorEnvelope, 'The hypervisor.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await setMaintenance(c.get('deps'), {
      hypervisorId: c.req.valid('param').hypervisor,
      enabled: c.req.valid('json').enabled,
    });
    return c.json(serializeHypervisor(row), 200);
  });
}

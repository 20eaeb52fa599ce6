import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createHypervisor } from '../../../services/hypervisors/create.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';
import { HypervisorCreateFields, unique } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/hypervisors',
  tags: ['Hypervisors'],
  summary: 'Register a hypervisor',
  description: 'The hypervisor starts `pending`; issue an enrollment token and give it to its agent.',
  request: { body: jsonBody(HypervisorCreateFields.openapi('HypervisorCreate')) },
  responses: {
    201: jsonContent(HypervisorEnvelope, 'The hypervisor.'),
    ...commonErrors,
    ...conflictResponse('A hypervisor with this name exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const row = await createHypervisor(c.get('deps'), {
      name: body.name,
      locationId: body.location_uuid,
      cpuCores: body.cpu_cores,
      memoryMb: body.memory_mb,
      diskMb: body.disk_mb,
      capabilities: unique(body.capabilities),
      withheldCapabilities: unique(body.withheld_capabilities),
      storageBackends: unique(body.storage_backends),
    });
    return c.json(serializeHypervisor(row), 201);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { boundedInt } from '../../../domain/migrations/convergence.js';
import type { AppEnv } from '../../../http/context.js';
import { editHypervisor } from '../../../services/hypervisors/edit.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';
import { HypervisorFields, unique } from './fields.js';

const HypervisorUpdate = HypervisorFields.partial()
  .extend({
    migration_bandwidth_mbps: boundedInt('bandwidth_mbps')
      .nullable()
      .optional()
      .openapi({
        description:
          'Outbound migration bandwidth budget in Mbit/s shared by the moves out of this hypervisor (each takes at ' +
          'most this divided by `MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR`); null removes it.',
      }),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    message: 'Give at least one field to change.',
  })
  .openapi('HypervisorUpdate');

const route = createRoute({
  method: 'patch',
  path: '/hypervisors/{hypervisor}',
  tags: ['Hypervisors'],
  summary: 'Update a hypervisor',
  description:
    'Changes name, location, capacity, declared or withheld capabilities (such as `live_migration`) or storage ' +
    'backends, or its outbound migration bandwidth budget (`migration_bandwidth_mbps`). The panel uses what the ' +
    'agent reports less `withheld_capabilities`.',
  request: { params: uuidParam('hypervisor'), body: jsonBody(HypervisorUpdate) },
  responses: {
    200: jsonContent(HypervisorEnvelope, 'The updated hypervisor.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('A hypervisor with this name exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const row = await editHypervisor(c.get('deps'), {
      hypervisorId: c.req.valid('param').hypervisor,
      changes: {
        name: body.name,
        locationId: body.location_uuid,
        cpuCores: body.cpu_cores,
        memoryMb: body.memory_mb,
        diskMb: body.disk_mb,
        capabilities: body.capabilities && unique(body.capabilities),
        withheldCapabilities: body.withheld_capabilities && unique(body.withheld_capabilities),
        storageBackends: body.storage_backends && unique(body.storage_backends),
        migrationBandwidthMbps: body.migration_bandwidth_mbps,
      },
    });
    return c.json(serializeHypervisor(row), 200);
  });
}

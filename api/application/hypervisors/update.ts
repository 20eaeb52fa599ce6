import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { isUniqueViolation } from '../../../db/errors.js';
import { locationExists, updateHypervisor } from '../../../db/repositories/hypervisors.js';
import { ApiError, notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../serializers/hypervisor.js';
import { HypervisorFields, unique } from './fields.js';

const HypervisorUpdate = HypervisorFields.partial()
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
    'Changes name, location, capacity, capabilities (such as `live_migration`) or storage backends.',
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
    const { db } = c.get('deps');
    const body = c.req.valid('json');
    if (body.location_uuid !== undefined && !(await locationExists(db, body.location_uuid))) {
      throw new ApiError('SVC-REQ-400', {
        fields: [{ field: 'location_uuid', detail: 'No such location.' }],
      });
    }
    try {
      const row = await updateHypervisor(db, c.req.valid('param').hypervisor, {
        name: body.name,
        locationId: body.location_uuid,
        cpuCores: body.cpu_cores,
        memoryMb: body.memory_mb,
        diskMb: body.disk_mb,
        capabilities: body.capabilities && unique(body.capabilities),
        storageBackends: body.storage_backends && unique(body.storage_backends),
      });
      if (!row) throw notFound();
      return c.json(serializeHypervisor(row), 200);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError('SVC-CONFLICT-409', {
          detail: 'A hypervisor with this name exists.',
          cause: error,
        });
      }
      throw error;
    }
  });
}

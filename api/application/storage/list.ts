import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listStorageBackends } from '../../../db/repositories/storage/storage-backends.js';
import { STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import {
  StorageBackendEnvelope,
  serializeStorageBackend,
} from '../../../wire/serializers/storage/storage-backend.js';
import { z } from '../../../wire/zod.js';

const Query = PageQuery.extend({
  backend: z.enum(STORAGE_BACKENDS).optional().openapi({ description: 'Only this backend.' }),
  location: z.string().uuid().optional().openapi({ description: 'Only this location’s hypervisors.' }),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Only this hypervisor.' }),
});

const route = createRoute({
  method: 'get',
  path: '/storage',
  tags: ['Storage'],
  summary: 'List storage backends per hypervisor',
  description:
    'Each storage backend of each hypervisor (as registered in its `storage_backends`), by backend then ' +
    'hypervisor name, with the hypervisor’s disk, the free disk its agent reported, the disk its active ' +
    'reservations hold, and the disk and count of the instances kept on that backend there. Filtered by ' +
    '`backend`, `location` and `hypervisor` (combined). Paginated with `page` and `per_page`.',
  request: { query: Query },
  responses: {
    200: jsonContent(listEnvelope(StorageBackendEnvelope, 'StorageBackendList'), 'A page of backends.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, backend, location, hypervisor } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listStorageBackends(
      c.get('deps').db,
      { backend, locationId: location, hypervisorId: hypervisor },
      request,
    );
    return c.json(listBody(request, total, rows.map(serializeStorageBackend)), 200);
  });
}

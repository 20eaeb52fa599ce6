import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deleteLibraryIso } from '../../../services/media/iso-delete.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { AdminIsoEnvelope, serializeAdminIso } from '../../../wire/serializers/storage/iso.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/isos/{iso}',
  tags: ['ISOs'],
  summary: 'Delete an ISO',
  description:
    'The ISO is `deleting` while the hypervisor that keeps it removes its file (task `iso.delete`), then gone ' +
    '(404); if the hypervisor does not, it is as it was. Not while it is mounted: unmount it first. Logged in ' +
    'the owner’s activity with the administrator as the actor.',
  request: { params: uuidParam('iso') },
  responses: {
    202: jsonContent(AdminIsoEnvelope, 'Accepted: the ISO is `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The ISO is in its instance’s CD-ROM drive (ISO_MOUNTED); an operation is changing the drive ' +
        '(SVC-OP-409); the ISO is still being fetched, or being deleted already (SVC-CONFLICT-409). Nothing changed.',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const iso = await deleteLibraryIso(c.get('deps'), adminActor(c), {
      isoId: c.req.valid('param').iso,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminIso(iso), 202);
  });
}

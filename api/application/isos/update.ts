import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { renameLibraryIso } from '../../../services/media/iso-rename.js';
import { isoNameField } from '../../../wire/requests/iso.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { AdminIsoEnvelope, serializeAdminIso } from '../../../wire/serializers/storage/iso.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const Body = z.strictObject({ name: isoNameField() }).openapi('AdminRenameIsoRequest');

const route = createRoute({
  method: 'patch',
  path: '/isos/{iso}',
  tags: ['ISOs'],
  summary: 'Rename an ISO',
  description:
    'Only its name changes, checked as on an add; nothing reaches its hypervisor. The same name again changes ' +
    'nothing. Logged in the owner’s activity with the administrator as the actor.',
  request: { params: uuidParam('iso'), body: jsonBody(Body) },
  responses: {
    200: jsonContent(AdminIsoEnvelope, 'The ISO, renamed.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The name is taken in the library, or the ISO is being deleted (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const iso = await renameLibraryIso(c.get('deps'), adminActor(c), {
      isoId: c.req.valid('param').iso,
      name: c.req.valid('json').name,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminIso(iso), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { addIso } from '../../../services/media/isos.js';
import { isoNameField, isoUrlField } from '../../../wire/requests/iso.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { AdminIsoEnvelope, serializeAdminIso } from '../../../wire/serializers/storage/iso.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const Body = z
  .strictObject({
    instance: z.string().uuid().openapi({ description: 'The instance whose library it joins.' }),
    name: isoNameField(),
    url: isoUrlField(),
  })
  .openapi('AdminAddIsoRequest');

const route = createRoute({
  method: 'post',
  path: '/isos',
  tags: ['ISOs'],
  summary: 'Add an ISO to an instance’s library',
  description:
    'As its owner would (`POST /api/client/cloud/{cloudInstance}/media/iso`): the same URL rules, names unique in ' +
    'the library, at most `MAX_ISOS_PER_INSTANCE`; the instance’s hypervisor fetches it. Answered 201 `fetching`, ' +
    'then `available` or `failed`; logged in the owner’s activity with the administrator as the actor.',
  request: { body: jsonBody(Body) },
  responses: {
    201: jsonContent(AdminIsoEnvelope, 'The ISO was added and is being fetched.'),
    ...commonErrors,
    404: {
      ...notFoundResponse[404],
      description: 'No such instance (SVC-RES-404, `source.field` `instance`).',
    },
    ...conflictResponse(
      'The name is taken in the library, or the instance is not placed (SVC-CONFLICT-409); the library is full ' +
        '(SVC-QUOTA-409).',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { instance, name, url } = c.req.valid('json');
    const iso = await addIso(c.get('deps'), adminActor(c), {
      instanceId: instance,
      instanceField: 'instance',
      name,
      url,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminIso(iso), 201);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { addIso } from '../../../../services/media/isos.js';
import { isoNameField, isoUrlField } from '../../../../wire/requests/iso.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { IsoEnvelope, serializeIso } from '../../../../wire/serializers/storage/iso.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const Body = z.strictObject({ name: isoNameField(), url: isoUrlField() }).openapi('AddIsoRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/media/iso',
  tags: ['Media'],
  summary: 'Add an ISO to the instance’s library',
  description:
    'The instance’s hypervisor fetches it from `url` (the panel never does): it connects only to public ' +
    'addresses the host resolves to (or networks the provider allowed), follows no redirect, and stops past ' +
    '`ISO_MAX_SIZE_MB`. The ISO is `fetching` at once, answered 201, then `available` with its size and SHA-256, or ' +
    '`failed` with the reason. The guest is not touched meanwhile. Names are unique in the library.',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(Body) },
  responses: {
    201: jsonContent(IsoEnvelope, 'The ISO was added and is being fetched.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The name is taken in the library, or the instance is not placed (SVC-CONFLICT-409); the library is full ' +
        '(SVC-QUOTA-409).',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    const body = c.req.valid('json');
    const iso = await addIso(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      name: body.name,
      url: body.url,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeIso(iso), 201);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findImageVersionView } from '../../../../db/repositories/catalogue/image-version-views.js';
import type { AppEnv } from '../../../../http/context.js';
import { addImageVersion } from '../../../../services/images/versions.js';
import {
  commonErrors,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import {
  ImageVersionEnvelope,
  serializeImageVersion,
} from '../../../../wire/serializers/catalogue/image-version.js';
import { ImageVersionCreateFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/images/{image}/versions',
  tags: ['Images'],
  summary: 'Add a version of an image',
  description:
    'The image’s next version, a disk fetched by each hypervisor of its locations from `url` and verified ' +
    'against the checksum; each hypervisor’s copy is `pending` at first. New orders take the newest version ' +
    'that is ready and not deprecated (docs/api.md "Image versions"). 503 when its distribution cannot ' +
    'start (Temporal unreachable); nothing is kept then.',
  request: { params: uuidParam('image'), body: jsonBody(ImageVersionCreateFields) },
  responses: {
    201: jsonContent(ImageVersionEnvelope, 'The version.'),
    ...commonErrors,
    ...notFoundResponse,
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const id = await addImageVersion(
      deps,
      c.req.valid('param').image,
      c.req.valid('json'),
      c.get('requestId'),
    );
    return c.json(serializeImageVersion((await findImageVersionView(deps.db, id))!), 201);
  });
}

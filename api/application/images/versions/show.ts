import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findImageVersionView } from '../../../../db/repositories/catalogue/image-version-views.js';
import { notFound } from '../../../../domain/errors.js';
import type { AppEnv } from '../../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import {
  ImageVersionEnvelope,
  serializeImageVersion,
} from '../../../../wire/serializers/catalogue/image-version.js';

const route = createRoute({
  method: 'get',
  path: '/image-versions/{version}',
  tags: ['Images'],
  summary: 'Show an image version',
  description:
    'One version of an image with each hypervisor’s copy: `pending`, `fetching`, `ready` or `failed` and why.',
  request: { params: uuidParam('version') },
  responses: {
    200: jsonContent(ImageVersionEnvelope, 'The version.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const view = await findImageVersionView(c.get('deps').db, c.req.valid('param').version);
    if (!view) throw notFound();
    return c.json(serializeImageVersion(view), 200);
  });
}

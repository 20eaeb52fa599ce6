import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findImageVersionView } from '../../../../db/repositories/catalogue/image-version-views.js';
import type { AppEnv } from '../../../../http/context.js';
import { deprecateImageVersion } from '../../../../services/images/versions.js';
import {
  commonErrors,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import {
  ImageVersionEnvelope,
  serializeImageVersion,
} from '../../../../wire/serializers/catalogue/image-version.js';
import { ImageVersionUpdateFields } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/image-versions/{version}',
  tags: ['Images'],
  summary: 'Deprecate an image version',
  description:
    '`deprecated: true`: new orders and rebuilds no longer take the version (`deprecated_at` kept from the ' +
    'first time); instances made from it run, stop, move and keep their disks as before. `false` takes it back.',
  request: { params: uuidParam('version'), body: jsonBody(ImageVersionUpdateFields) },
  responses: {
    200: jsonContent(ImageVersionEnvelope, 'The version.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const versionId = c.req.valid('param').version;
    await deprecateImageVersion(deps, versionId, c.req.valid('json').deprecated);
    return c.json(serializeImageVersion((await findImageVersionView(deps.db, versionId))!), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { editImage } from '../../../services/catalogue/images.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../../wire/serializers/catalogue/image.js';
import { ImageUpdateFields } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/images/{image}',
  tags: ['Images'],
  summary: 'Change an image',
  description:
    'The fields given change; the code stays. Instances keep the disk they were written with: a change ' +
    'reaches only the instances created or rebuilt after it.',
  request: { params: uuidParam('image'), body: jsonBody(ImageUpdateFields) },
  responses: { 200: jsonContent(AdminImageEnvelope, 'The image.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await editImage(c.get('deps'), c.req.valid('param').image, c.req.valid('json'));
    return c.json(serializeAdminImage(row), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createImage } from '../../../services/catalogue/images.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../../wire/serializers/catalogue/image.js';
import { ImageCreateFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/images',
  tags: ['Images'],
  summary: 'Create an image',
  description:
    'A catalogue entry: customers order and rebuild by `code`, and each hypervisor finds the image’s ' +
    'files by the same code in its image store (docs/qemu.md); one without them refuses the task with ' +
    '`IMAGE_NOT_AVAILABLE`. `is_public: false` keeps it from customers.',
  request: { body: jsonBody(ImageCreateFields) },
  responses: {
    201: jsonContent(AdminImageEnvelope, 'The image.'),
    ...commonErrors,
    ...conflictResponse('An image with this code exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await createImage(c.get('deps'), c.req.valid('json'));
    return c.json(serializeAdminImage(row), 201);
  });
}

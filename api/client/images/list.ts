import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPublicImages } from '../../../db/repositories/images.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../schemas.js';
import { ImageEnvelope, serializeImage } from '../../serializers/image.js';

const ImageList = listEnvelope(ImageEnvelope, 'ImageList');

const route = createRoute({
  method: 'get',
  path: '/images',
  tags: ['Images'],
  summary: 'List the images available to the caller',
  description:
    'The public images, by name. Paginated with `page` (from 1) and `per_page` (1 to 100, default 25). ' +
    '`min_disk_mb` is the smallest disk an instance of the image may have.',
  request: { query: PageQuery },
  responses: { 200: jsonContent(ImageList, 'A page of images.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listPublicImages(c.get('deps').db, request);
    return c.json(listBody(request, total, rows.map(serializeImage)), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listImageCopyRemovals } from '../../../../db/repositories/catalogue/image-copy-removal-reads.js';
import { findImageVersion } from '../../../../db/repositories/catalogue/image-versions.js';
import { notFound } from '../../../../domain/errors.js';
import type { AppEnv } from '../../../../http/context.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../../wire/schemas.js';
import {
  ImageCopyRemovalEnvelope,
  serializeImageCopyRemoval,
} from '../../../../wire/serializers/catalogue/image-copy-removal.js';

const route = createRoute({
  method: 'get',
  path: '/image-versions/{version}/removals',
  tags: ['Images'],
  summary: 'List a deleted image version’s removals',
  description:
    'Once a version is deleted, each hypervisor that held (or was fetching, or failed to fetch) its copy ' +
    'removes it from its image store: its removal `pending`, `removing`, `removed`, or `blocked` while a ' +
    'guest there still boots from it. By hypervisor name, paginated. A version not deleted yet has none; ' +
    '404 when there is no such version and none was recorded.',
  request: { params: uuidParam('version'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(ImageCopyRemovalEnvelope, 'ImageCopyRemovalList'), 'A page of removals.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const versionId = c.req.valid('param').version;
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listImageCopyRemovals(db, versionId, request);
    if (total === 0 && !(await findImageVersion(db, versionId))) throw notFound();
    return c.json(listBody(request, total, rows.map(serializeImageCopyRemoval)), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findImageVersionView } from '../../../../db/repositories/catalogue/image-version-views.js';
import type { AppEnv } from '../../../../http/context.js';
import { redistributeImageVersion } from '../../../../services/images/distribution.js';
import {
  commonErrors,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import {
  ImageVersionEnvelope,
  serializeImageVersion,
} from '../../../../wire/serializers/catalogue/image-version.js';

const route = createRoute({
  method: 'post',
  path: '/image-versions/{version}/distribute',
  tags: ['Images'],
  summary: 'Distribute an image version again',
  description:
    'Every online hypervisor of its locations whose copy is not `ready` fetches it again: one whose fetch ' +
    'failed, or that missed its catch-up. A hypervisor that enrolls or comes back online fetches the ' +
    'versions of its location it lacks by itself. One distribution of a version runs at a time: asked ' +
    'while one runs, it joins that one; a copy another run fetches is left to it. 202 with the version as it stands.',
  request: { params: uuidParam('version') },
  responses: {
    202: jsonContent(
      ImageVersionEnvelope,
      'The version; its copies move to `fetching` as the run takes them.',
    ),
    ...commonErrors,
    ...notFoundResponse,
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const versionId = c.req.valid('param').version;
    await redistributeImageVersion(deps, versionId, c.get('requestId'));
    return c.json(serializeImageVersion((await findImageVersionView(deps.db, versionId))!), 202);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { deleteImageVersion } from '../../../../services/images/versions.js';
import { commonErrors, conflictResponse, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';

const route = createRoute({
  method: 'delete',
  path: '/image-versions/{version}',
  tags: ['Images'],
  summary: 'Delete an image version',
  description:
    'Refused while an instance that is not deleted was made from it, or a running rebuild writes it ' +
    '(`SVC-INUSE-409`, the detail counts each); nothing changes then. Deleted instances keep no reference to it. ' +
    'Each hypervisor that holds its copy (or was fetching it, or failed to) is then asked to remove it ' +
    '(task `image.delete`; one not online when it comes back); `GET /image-versions/{version}/removals` shows each removal.',
  request: { params: uuidParam('version') },
  responses: {
    204: { description: 'Deleted; its copies’ removals recorded and started.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Instances or a running rebuild use the version (SVC-INUSE-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    await deleteImageVersion(c.get('deps'), c.req.valid('param').version, c.get('requestId'));
    return c.body(null, 204);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { revokeSession } from '../../../services/console/sessions.js';
import {
  commonErrors,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
} from '../../../wire/schemas.js';
import {
  ConsoleSessionEnvelope,
  serializeConsoleSession,
} from '../../../wire/serializers/instances/console.js';
import { z } from '../../../wire/zod.js';

const route = createRoute({
  method: 'post',
  path: '/console/sessions/{session}/revoke',
  tags: ['Console'],
  summary: 'Revoke a console session',
  description:
    'Ends any customer’s session `revoked`, as the customer’s own revoke does: the gateway relaying it cuts it ' +
    'within seconds. A session over already stays as it ended. The body may be left out.',
  request: {
    params: uuidParam('session'),
    body: optionalJsonBody(z.strictObject({}).openapi('AdminConsoleSessionRevokeRequest')),
  },
  responses: {
    200: jsonContent(ConsoleSessionEnvelope, 'The session, ended.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const session = await revokeSession(c.get('deps'), c.req.valid('param').session);
    return c.json(serializeConsoleSession(session), 200);
  });
}

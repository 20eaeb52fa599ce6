import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listConsoleGatewayCredentials } from '../../../db/repositories/accounts/keys.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import {
  ConsoleGatewayCredentialEnvelope,
  serializeConsoleGatewayCredential,
} from '../../../wire/serializers/instances/console-gateway-credential.js';

const route = createRoute({
  method: 'get',
  path: '/console/gateway-credentials',
  tags: ['Console'],
  summary: 'List console-gateway credentials',
  description:
    'Every console-gateway credential, newest first, revoked ones too: each by its hint, never the credential.',
  responses: {
    200: jsonContent(
      listEnvelope(ConsoleGatewayCredentialEnvelope, 'ConsoleGatewayCredentialList'),
      'The credentials, in one page.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const rows = await listConsoleGatewayCredentials(c.get('deps').db);
    const page = { page: 1, perPage: Math.max(1, rows.length) };
    return c.json(listBody(page, rows.length, rows.map(serializeConsoleGatewayCredential)), 200);
  });
}

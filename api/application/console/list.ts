import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listConsoleSessions } from '../../../db/repositories/instances/console-sessions.js';
import { CONSOLE_SESSION_STATES } from '../../../domain/console/sessions.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import {
  ConsoleSessionEnvelope,
  serializeConsoleSession,
} from '../../../wire/serializers/instances/console.js';
import { z } from '../../../wire/zod.js';

const Query = PageQuery.extend({
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s.' }),
  instance: z.string().uuid().optional().openapi({ description: 'Only this instance’s.' }),
  state: z
    .enum([...CONSOLE_SESSION_STATES, 'live'])
    .optional()
    .openapi({ description: 'Only sessions in this state; `live`: every one not ended.' }),
});

const route = createRoute({
  method: 'get',
  path: '/console/sessions',
  tags: ['Console'],
  summary: 'List console sessions',
  description:
    'Every customer’s console sessions, newest first, paginated: whose, at which instance, their state and ' +
    'times, and why each ended. Connect tokens are never shown.',
  request: { query: Query },
  responses: {
    200: jsonContent(listEnvelope(ConsoleSessionEnvelope, 'ConsoleSessionList'), 'A page of sessions.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, user, instance, state } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listConsoleSessions(
      c.get('deps').db,
      { userId: user, instanceId: instance, state },
      request,
    );
    return c.json(listBody(request, total, rows.map(serializeConsoleSession)), 200);
  });
}

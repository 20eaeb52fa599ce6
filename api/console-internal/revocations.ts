import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CONSOLE_END_REASONS } from '../../domain/console/sessions.js';
import type { AppEnv } from '../../http/context.js';
import { revocationFeed } from '../../services/console/gateway.js';
import { jsonContent } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { internalErrors } from './errors.js';

const Query = z.object({
  cursor: z
    .string()
    .regex(/^[0-9]{1,19}$/)
    .optional()
    .openapi({ description: 'The `cursor` of the last answer; left out, the answer starts from now.' }),
});

const Feed = z
  .object({
    object: z.literal('console_revocations'),
    data: z.array(
      z.object({
        session: z.string().uuid(),
        reason: z.enum(CONSOLE_END_REASONS),
        ended_at: z.string(),
      }),
    ),
    cursor: z.string().openapi({ description: 'Ask from here next time.' }),
  })
  .openapi('ConsoleRevocations');

const route = createRoute({
  method: 'get',
  path: '/revocations',
  summary: 'Sessions ended since the cursor',
  description:
    'The feed of ended sessions, oldest first, after `cursor` (at most 500 an answer: ask again from the new ' +
    'cursor while the page is full). Every ending is in it, whatever ended the session: a revoke, its expiry ' +
    '(sessions past their time are ended by this very request), the instance deleted or migrated, a ' +
    'disconnect, or a lost gateway. A gateway that asks every second cuts a revoked session within two. ' +
    'Without a cursor the answer holds no endings, only the cursor to follow from.',
  request: { query: Query },
  responses: { 200: jsonContent(Feed, 'The endings, and where to continue.'), ...internalErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { endings, cursor } = await revocationFeed(c.get('deps'), c.req.valid('query').cursor);
    return c.json(
      {
        object: 'console_revocations' as const,
        data: endings.map((e) => ({
          session: e.session_id,
          reason: e.reason,
          ended_at: (e.ended_at ?? new Date()).toISOString(),
        })),
        cursor,
      },
      200,
    );
  });
}

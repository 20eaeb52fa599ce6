import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { revealPassword } from '../../../../services/instances/passwords.js';
import {
  commonErrors,
  ErrorEnvelope,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const PasswordEnvelope = z
  .object({
    object: z.literal('instance_password'),
    attributes: z.object({
      password: z.string().openapi({ description: 'The root password. Shown this once.' }),
      visible_until: z.string().openapi({ example: '2026-11-22T02:02:03.000Z' }),
    }),
  })
  .openapi('InstancePassword');

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/settings/password',
  tags: ['Instance settings'],
  summary: 'Show the root password (once)',
  description:
    'The root password set at creation, rebuild or regeneration, within its show-once window ' +
    '(INITIAL_PASSWORD_WINDOW_MS, one hour by default): the first read shows it and ends the window; any ' +
    'later read, or one after the window, gets 410 (SVC-PASSWORD-410). Regenerate it with ' +
    '`POST /{cloudInstance}/settings/password`. The password is never logged.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(PasswordEnvelope, 'The password, this once.'),
    ...commonErrors,
    ...notFoundResponse,
    410: {
      description: 'Already shown, or the window has passed (SVC-PASSWORD-410).',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const shown = await revealPassword(c.get('deps'), customerActor(c), c.req.valid('param').cloudInstance);
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        object: 'instance_password' as const,
        attributes: { password: shown.password, visible_until: shown.visibleUntil.toISOString() },
      },
      200,
    );
  });
}

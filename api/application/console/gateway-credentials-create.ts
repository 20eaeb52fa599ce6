import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { text } from '../../../domain/input-bounds.js';
import { KEY_LABEL_MAX } from '../../../domain/users.js';
import type { AppEnv } from '../../../http/context.js';
import { issueKey } from '../../../services/keys.js';
import { commonErrors, jsonContent, optionalJsonBody } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const Fields = z
  .strictObject({
    label: text({ max: KEY_LABEL_MAX, trim: true })
      .nullable()
      .default(null)
      .openapi({ example: 'gateway eu-1' }),
  })
  .openapi('ConsoleGatewayCredentialCreate');

const IssuedEnvelope = z
  .object({
    object: z.literal('console_gateway_credential'),
    attributes: z.object({
      uuid: z.string().uuid(),
      label: z.string().nullable(),
      hint: z.string(),
      token: z.string().openapi({ description: 'The credential, shown this once: only its hash is stored.' }),
    }),
  })
  .openapi('IssuedConsoleGatewayCredential');

const route = createRoute({
  method: 'post',
  path: '/console/gateway-credentials',
  tags: ['Console'],
  summary: 'Issue a console-gateway credential',
  description:
    'A credential (`csw_…`) for a console gateway to call the console internal API with; it belongs to no ' +
    'user and is refused by every other API. It is in this answer once and never again. The body may be ' +
    'left out.',
  request: { body: optionalJsonBody(Fields) },
  responses: {
    201: jsonContent(IssuedEnvelope, 'The credential, shown once.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const label = c.req.valid('json').label ?? null;
    const issued = await issueKey(c.get('deps'), { type: 'console_gateway', label });
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        object: 'console_gateway_credential' as const,
        attributes: { uuid: issued.id, label, hint: issued.hint, token: issued.token },
      },
      201,
    );
  });
}

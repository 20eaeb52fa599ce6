import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CATALOGUE_CODE, CATALOGUE_CODE_MESSAGE } from '../../../domain/catalog.js';
import { hostname, instanceName, timezone } from '../../../domain/instances/settings.js';
import { createInstance } from '../../../services/instances/create.js';
import { rateLimitHeaders } from '../../../services/instances/create-limits.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonBody,
  jsonContent,
  rateLimitedResponse,
} from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { z } from '../../zod.js';

const code = z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE });

const CreateBody = z
  .object({
    name: instanceName.optional().openapi({ description: 'The panel’s label; defaults to the hostname.' }),
    hostname: hostname.openapi({ example: 'web-1.example.com' }),
    plan: code.openapi({ example: 'demo-small', description: 'A plan’s code (GET /plans).' }),
    image: code.openapi({ example: 'debian-12', description: 'An image’s code (GET /images).' }),
    location: code.openapi({ example: 'demo-1', description: 'A location’s code (GET /locations).' }),
    ssh_keys: z
      .array(z.string().uuid())
      .max(20)
      .default([])
      .openapi({ description: 'UUIDs of the caller’s SSH keys (GET /ssh-keys) to install for root.' }),
    timezone: timezone.default('UTC').openapi({ example: 'Europe/Berlin' }),
  })
  .strict()
  .openapi('CreateInstanceRequest');

export const IdempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, { message: 'Must be 1 to 255 visible ASCII characters.' })
    .optional()
    .openapi({
      description:
        'Makes the request safe to retry: the same key with the same body gets the first answer again ' +
        '(with `Idempotent-Replayed: true`), with another body 422, while the first is running 409. Scoped ' +
        'to the caller; kept at least 24 hours.',
      example: '0b5d6c8e-create-web-1',
    }),
});

const route = createRoute({
  method: 'post',
  path: '/',
  tags: ['Instances'],
  summary: 'Create an instance',
  description:
    'Places the instance on a hypervisor of the location that is online, not in maintenance and has the ' +
    'plan’s resources free; reserves them and allocates its addresses from the location’s pools, then ' +
    'provisions it (status `provisioning`, then the power state the hypervisor reports, normally `running`). ' +
    'The root password can be read once from `GET /{cloudInstance}/settings/password`. Rate-limited per ' +
    'caller (INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE, with `RateLimit` and `RateLimit-Policy` headers).',
  request: { headers: IdempotencyHeader, body: jsonBody(CreateBody) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in `provisioning`.'),
    ...commonErrors,
    ...conflictResponse(
      'No hypervisor can take the plan now (SVC-PLACEMENT-409, with the reasons counted); no free address ' +
        '(SVC-IP-409); a request with the same Idempotency-Key is still running (SVC-IDEMP-409).',
    ),
    422: {
      description: 'The Idempotency-Key was used with another request (SVC-IDEMP-422).',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
    ...rateLimitedResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const outcome = await createInstance(
      c.get('deps'),
      customerActor(c),
      {
        name: body.name ?? body.hostname,
        hostname: body.hostname,
        plan: body.plan,
        image: body.image,
        location: body.location,
        sshKeyIds: body.ssh_keys,
        timezone: body.timezone,
      },
      {
        idempotencyKey: c.req.valid('header')['idempotency-key'],
        fingerprint: { method: 'POST', path: '/api/client/cloud', body },
        correlationId: c.get('requestId'),
      },
      serializeInstance,
    );
    if (outcome.rateLimit)
      for (const [name, value] of Object.entries(rateLimitHeaders(outcome.rateLimit))) c.header(name, value);
    if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(outcome.body, 202);
  });
}

import type { Context } from 'hono';
import { CATALOGUE_CODE, CATALOGUE_CODE_MESSAGE } from '../../domain/catalog.js';
import { hostname, instanceName, timezone } from '../../domain/instances/settings.js';
import { USER_DATA_MAX_ENCODED } from '../../domain/instances/user-data.js';
import type { AppEnv } from '../../http/context.js';
import type { CreateContext, CreateInstanceRequest, CreateOutcome } from '../../services/instances/create.js';
import { rateLimitHeaders } from '../../services/instances/create-limits.js';
import { conflictResponse, ErrorEnvelope, rateLimitedResponse } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';

/** What an order of an instance names, the same for a customer's and an administrator's create. */

export const catalogueCode = z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE });

/** The customer's cloud-init user-data as a create or rebuild carries it (docs/api.md "User-data"). */
export const userDataField = z
  .string()
  .max(USER_DATA_MAX_ENCODED)
  .openapi({
    format: 'byte',
    example: 'I2Nsb3VkLWNvbmZpZwpydW5jbWQ6CiAgLSBbdG91Y2gsIC9ldGMvcmVhZHldCg==',
    description:
      'cloud-init user-data, base64 (RFC 4648, padded; line breaks ignored): a cloud-config (first line ' +
      '`#cloud-config`, a YAML mapping) or a script (first line `#!`), at most 32768 bytes decoded. Given to ' +
      'the guest beside the panel’s own data, which wins: the hostname, time zone, SSH keys, root password ' +
      'and network are the panel’s. Kept sealed; the instance shows only its kind, size and SHA-256.',
  });

export const InstanceOrderFields = {
  name: instanceName.optional().openapi({ description: 'The panel’s label; defaults to the hostname.' }),
  hostname: hostname.openapi({ example: 'web-1.example.com' }),
  plan: catalogueCode.openapi({
    example: 'demo-small',
    description:
      'A plan’s code (GET /plans). A plan offered in one location only (its `location_uuid`) is ordered there only: elsewhere 400 naming `plan`.',
  }),
  image: catalogueCode.openapi({ example: 'debian-12', description: 'An image’s code (GET /images).' }),
  location: catalogueCode.openapi({ example: 'demo-1', description: 'A location’s code (GET /locations).' }),
  ssh_keys: z
    .array(z.string().uuid())
    .max(20)
    .default([])
    .openapi({ description: 'UUIDs of the owner’s SSH keys (GET /ssh-keys) to install for root.' }),
  timezone: timezone.default('UTC').openapi({ example: 'Europe/Berlin' }),
  user_data: userDataField.optional(),
  placement_group: z
    .string()
    .uuid()
    .optional()
    .openapi({
      description:
        'The UUID of a placement group of the owner’s in the same location (GET /placement-groups): placement ' +
        'keeps the instance off hypervisors its other members hold (`spread`), or prefers to (`spread_soft`).',
    }),
};

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

/** The refusals particular to an order, beside the common ones (and `conflicts` of its own). */
export const orderRefusals = (conflicts = '') => ({
  ...conflictResponse(
    `${conflicts}No hypervisor can take the plan now (SVC-PLACEMENT-409, with the reasons counted); no free ` +
      'address (SVC-IP-409); an imported image has no version ready in the location (IMAGE_NOT_AVAILABLE); ' +
      'the owner would pass a quota (QUOTA_EXCEEDED, `meta` naming it); a request ' +
      'with the same Idempotency-Key is still running (SVC-IDEMP-409).',
  ),
  422: {
    description: 'The Idempotency-Key was used with another request (SVC-IDEMP-422).',
    content: { 'application/json': { schema: ErrorEnvelope } },
  },
  ...rateLimitedResponse,
});

/** The headers of an order's answer: the rate limit's state, and whether it was replayed. */
export function setOrderHeaders(c: Context<AppEnv>, outcome: CreateOutcome<unknown>): void {
  if (outcome.rateLimit)
    for (const [name, value] of Object.entries(rateLimitHeaders(outcome.rateLimit))) c.header(name, value);
  if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
}

type OrderBody = z.infer<z.ZodObject<typeof InstanceOrderFields>>;

/** What the create service is asked, from an order's body, for its owner. */
export const orderRequest = (ownerId: string, body: OrderBody): CreateInstanceRequest => ({
  ownerId,
  name: body.name ?? body.hostname,
  hostname: body.hostname,
  plan: body.plan,
  image: body.image,
  location: body.location,
  sshKeyIds: body.ssh_keys,
  timezone: body.timezone,
  userData: body.user_data,
  placementGroupId: body.placement_group,
});

/** The order's context: its Idempotency-Key, bound to this path and body, and the request id. */
export const orderContext = (
  c: Context<AppEnv>,
  key: string | undefined,
  path: string,
  body: unknown,
): CreateContext => ({
  idempotencyKey: key,
  fingerprint: { method: 'POST', path, body },
  correlationId: c.get('requestId'),
});

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { hostname, instanceName, timezone } from '../../../../domain/instances/settings.js';
import type { AppEnv } from '../../../../http/context.js';
import { restoreBackupAsNew } from '../../../../services/backups/restore-backup-as-new.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse } from '../../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../../wire/serializers/instances/instance.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';
import {
  catalogueCode,
  IdempotencyHeader,
  orderRefusals,
  setOrderHeaders,
} from '../../../routes-kit/instance-order.js';
import { backupParams } from './params.js';

const RestoreNewBody = z
  .object({
    hostname: hostname.openapi({ example: 'web-2.example.com' }),
    name: instanceName.optional().openapi({ description: 'The panel’s label; defaults to the hostname.' }),
    plan: catalogueCode
      .optional()
      .openapi({ example: 'demo-small', description: 'The plan’s code; default the backed-up instance’s.' }),
    location: catalogueCode
      .optional()
      .openapi({ example: 'demo-1', description: 'The location’s code; default the backed-up instance’s.' }),
    ssh_keys: z
      .array(z.string().uuid())
      .max(20)
      .default([])
      .openapi({ description: 'UUIDs of the caller’s SSH keys, recorded on the new instance.' }),
    timezone: timezone.optional().openapi({ example: 'Europe/Berlin' }),
  })
  .strict()
  .openapi('RestoreBackupAsNewRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/backups/{cloudBackup}/restore-new',
  tags: ['Backups'],
  summary: 'Restore the backup as a new instance',
  description:
    'Creates an instance exactly as `POST /` does (placement, reservation, addresses, `Idempotency-Key`, ' +
    'the creation rate limit), but its disk is written from the backup instead of an image: the guest is ' +
    'the backed-up one, as it was. The plan, location and timezone default to the backed-up instance’s; the ' +
    'plan’s disk must hold the backup. The backup must be `available`; it stays so, and cannot be deleted ' +
    'while the new instance is provisioned. If the backup no longer matches its checksum, provisioning fails ' +
    'and the new instance is left in `error` with its capacity and addresses released.',
  request: { params: backupParams, headers: IdempotencyHeader, body: jsonBody(RestoreNewBody) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the new instance in `provisioning`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...orderRefusals('The backup is not `available` (SVC-CONFLICT-409). '),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const outcome = await restoreBackupAsNew(
      c.get('deps'),
      customerActor(c),
      {
        instanceId: cloudInstance,
        backupId: cloudBackup,
        hostname: body.hostname,
        name: body.name,
        plan: body.plan,
        location: body.location,
        sshKeyIds: body.ssh_keys,
        timezone: body.timezone,
      },
      {
        idempotencyKey: c.req.valid('header')['idempotency-key'],
        fingerprint: { method: 'POST', path: new URL(c.req.url).pathname, body },
        correlationId: c.get('requestId'),
      },
      serializeInstance,
    );
    setOrderHeaders(c, outcome);
    return c.json(outcome.body, 202);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { migrationPreflight } from '../../../services/migrations/preflight.js';
import { migrationMode, targetHypervisor } from '../../../wire/requests/migration-fields.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { MigrationPreflightEnvelope, serializePreflight } from '../../../wire/serializers/migration.js';
import { z } from '../../../wire/zod.js';

const PreflightBody = z
  .strictObject({ target_hypervisor_uuid: targetHypervisor, mode: migrationMode })
  .openapi('MigrationPreflightRequest');

const route = createRoute({
  method: 'post',
  path: '/instances/{instance}/migrations/preflight',
  tags: ['Migrations'],
  summary: 'Preflight a migration (read-only)',
  description:
    'Judges the move without changing anything: every blocker and every warning (each with a stable code), the ' +
    'strategy each mode would use with the target, the candidate targets best first, and each rejected ' +
    'hypervisor with its reasons. Without `target_hypervisor_uuid`, the best candidate is judged. A blocked ' +
    'migration is still a 200, with `ok: false`; an unknown target is the blocker `NO_TARGET`.',
  request: { params: uuidParam('instance'), body: jsonBody(PreflightBody) },
  responses: {
    200: jsonContent(MigrationPreflightEnvelope, 'The report.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const report = await migrationPreflight(c.get('deps'), {
      instanceId: c.req.valid('param').instance,
      targetId: body.target_hypervisor_uuid,
      mode: body.mode,
    });
    return c.json(serializePreflight(report), 200);
  });
}

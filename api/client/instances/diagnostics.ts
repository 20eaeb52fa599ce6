import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findInstanceDiagnostics } from '../../../db/repositories/instances/instance-diagnostics.js';
import { notFound } from '../../../domain/errors.js';
import { customerFailure } from '../../../domain/instances/failures.js';
import { INSTANCE_OPERATIONS } from '../../../domain/instances/operations.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { InstanceAttributes, serializeGuestDrift } from '../../../wire/serializers/instances/instance.js';
import { z } from '../../../wire/zod.js';
import { callersInstance } from './callers-instance.js';

const DiagnosticsEnvelope = z
  .object({
    object: z.literal('instance_diagnostics'),
    attributes: z.object({
      status: z.string(),
      agent_reachable: z
        .boolean()
        .openapi({ description: 'Whether the instance’s hypervisor is answering the panel now.' }),
      agent_last_seen_at: z.string().nullable(),
      migrating: z.boolean(),
      guest_drift: InstanceAttributes.shape.guest_drift,
      pending_operation: z
        .object({ uuid: z.string().uuid(), operation: z.enum(INSTANCE_OPERATIONS), since: z.string() })
        .nullable(),
      last_error: z
        .object({
          operation: z.enum(INSTANCE_OPERATIONS),
          code: z.string(),
          message: z.string(),
          at: z.string().nullable(),
        })
        .nullable(),
    }),
  })
  .openapi('InstanceDiagnostics');

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/diagnostics',
  tags: ['Instances'],
  summary: 'Instance diagnostics',
  description:
    'What a customer may know of the instance’s health: whether its hypervisor answers the panel, the ' +
    'operation under way, whether it is being migrated, what the hypervisor last reported against the panel’s ' +
    'record (`guest_drift`), and the last failure with a customer-safe message. ' +
    'Nothing of the hypervisor itself (its name, address or internals) is shown.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(DiagnosticsEnvelope, 'The diagnostics.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
    const facts = await findInstanceDiagnostics(db, instance.id);
    if (!facts) throw notFound();
    const failure = facts.lastFailure;
    return c.json(
      {
        object: 'instance_diagnostics' as const,
        attributes: {
          status: instance.status,
          agent_reachable: facts.hypervisor_status === 'online',
          agent_last_seen_at: facts.hypervisor_last_seen_at?.toISOString() ?? null,
          migrating: facts.migrating,
          guest_drift: serializeGuestDrift(instance),
          pending_operation:
            facts.running_id && facts.running_kind && facts.running_since
              ? {
                  uuid: facts.running_id,
                  operation: facts.running_kind,
                  since: facts.running_since.toISOString(),
                }
              : null,
          last_error: failure
            ? {
                operation: failure.kind,
                ...customerFailure(failure.outcome?.error as { code?: unknown } | undefined),
                at: failure.finished_at?.toISOString() ?? null,
              }
            : null,
        },
      },
      200,
    );
  });
}

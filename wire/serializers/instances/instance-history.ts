import { customerFailure } from '../../../domain/instances/failures.js';
import { INSTANCE_OPERATIONS, OPERATION_STATES } from '../../../domain/instances/operations.js';
import { z } from '../../zod.js';

/**
 * An instance's history as its customer sees it: activity-log entries and operations (tasks),
 * with who asked, the request id, the outcome and a customer-safe error, never a hypervisor's
 * message, a host or an internal id.
 */
export const ActivityEnvelope = z
  .object({
    object: z.literal('activity'),
    attributes: z.object({
      id: z.string().openapi({ description: 'Increases with time.' }),
      event: z.string().openapi({ example: 'instance.stop.completed' }),
      actor: z.enum(['customer', 'administrator', 'system']),
      request_id: z
        .string()
        .nullable()
        .openapi({ description: 'The X-Request-Id of the request that led to it.' }),
      status: z.string().nullable().openapi({ description: 'The instance status the event left, if any.' }),
      created_at: z.string(),
    }),
  })
  .openapi('Activity');

interface ActivityRow {
  id: string;
  actor: string;
  event: string;
  detail: Record<string, unknown>;
  correlation_id: string | null;
  created_at: Date;
}

const actorKind = (actor: string) =>
  actor.startsWith('user:') ? 'customer' : actor.startsWith('admin:') ? 'administrator' : 'system';

export function serializeActivity(row: ActivityRow): z.infer<typeof ActivityEnvelope> {
  return {
    object: 'activity',
    attributes: {
      id: String(row.id),
      event: row.event,
      actor: actorKind(row.actor),
      request_id: row.correlation_id,
      status: typeof row.detail.status === 'string' ? row.detail.status : null,
      created_at: row.created_at.toISOString(),
    },
  };
}

export const TaskEnvelope = z
  .object({
    object: z.literal('task'),
    attributes: z.object({
      uuid: z.string().uuid(),
      operation: z.enum(INSTANCE_OPERATIONS),
      state: z.enum(OPERATION_STATES),
      request_id: z.string().nullable(),
      error: z
        .object({ code: z.string(), message: z.string() })
        .nullable()
        .openapi({ description: 'Why it failed, for a failed or abandoned task.' }),
      created_at: z.string(),
      finished_at: z.string().nullable(),
    }),
  })
  .openapi('Task');

interface TaskRow {
  id: string;
  kind: (typeof INSTANCE_OPERATIONS)[number];
  state: (typeof OPERATION_STATES)[number];
  outcome: Record<string, unknown> | null;
  correlation_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export function serializeTask(row: TaskRow): z.infer<typeof TaskEnvelope> {
  const failed = row.state === 'failed' || row.state === 'abandoned';
  return {
    object: 'task',
    attributes: {
      uuid: row.id,
      operation: row.kind,
      state: row.state,
      request_id: row.correlation_id,
      error: failed ? customerFailure(row.outcome?.error as { code?: unknown } | undefined) : null,
      created_at: row.created_at.toISOString(),
      finished_at: row.finished_at?.toISOString() ?? null,
    },
  };
}

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AgentTaskFailure, AgentTaskProgressMessage, AgentTaskResultBody } from './agent-tasks.js';
import { HYPERVISOR_STATUSES } from './hypervisors.js';
import { INT4_MAX } from './input-bounds.js';
import { TaskProgressDetails } from './migrations/live-progress.js';

/**
 * The Agent API's protocol, once: the states of a task, the reports an agent sends and the
 * answers it gets. The panel validates and documents with these schemas (api/agent/), records
 * with them (services/agents/, the agent_tasks columns) and the agent reads with them (agent/).
 */

/** An agent task's life: queued, leased by a long poll, running once `started`, then finished. */
export const AGENT_TASK_STATUSES = [
  'queued',
  'leased',
  'running',
  'completed',
  'failed',
  'cancelled',
  'abandoned',
] as const;
export type AgentTaskStatus = (typeof AGENT_TASK_STATUSES)[number];
export const LIVE_TASK_STATUSES: readonly AgentTaskStatus[] = ['queued', 'leased', 'running'];
export const FINISHED_TASK_STATUSES: readonly AgentTaskStatus[] = [
  'completed',
  'failed',
  'cancelled',
  'abandoned',
];

export const AGENT_REPORT_KINDS = ['started', 'progress', 'completed', 'failed'] as const;
export type AgentReportKind = (typeof AGENT_REPORT_KINDS)[number];

/** What a report's answer tells the agent: go on, or abandon the task and report nothing more. */
export const DIRECTIVES = ['continue', 'stop'] as const;

const sequence = z
  .number()
  .int()
  .min(1)
  .max(INT4_MAX)
  .describe(
    'Increases with every report the agent sends for this task; (task_id, sequence) is the idempotency key.',
  );

/** The body of each report, by kind. */
export const REPORT_BODIES = {
  started: z.strictObject({ sequence }),
  progress: z.strictObject({
    sequence,
    percent: z.number().min(0).max(100).optional(),
    message: AgentTaskProgressMessage.optional(),
    details: TaskProgressDetails.optional().describe(
      "Figures of the task's progress, of the shape `kind` names: `live_migration` (a `migration.live` task's QEMU figures, kept on the migration's record). A report older than the newest one taken changes nothing.",
    ),
  }),
  completed: z.strictObject({ sequence, result: AgentTaskResultBody }),
  failed: z.strictObject({ sequence, error: AgentTaskFailure }),
} as const satisfies Record<AgentReportKind, z.ZodType>;

export const ReportAckBody = z.object({
  object: z.literal('agent_task_ack'),
  attributes: z.object({
    task_id: z.string().uuid(),
    sequence: z.number().int(),
    state: z.enum(AGENT_TASK_STATUSES),
    directive: z
      .enum(DIRECTIVES)
      .describe(
        '`stop`: abandon the task (it was cancelled, superseded or has finished); report nothing more.',
      ),
  }),
});
export type ReportAck = z.infer<typeof ReportAckBody>;

/**
 * Pacing the panel gives its agents at enrollment and on every heartbeat, derived from its own
 * timeouts, so an agent keeps the panel's deadlines without its own configuration.
 */
export const AgentSettingsBody = z.object({
  heartbeat_interval_ms: z.number().int(),
  progress_interval_ms: z.number().int(),
  poll_wait_ms: z.number().int(),
});
export type AgentSettings = z.infer<typeof AgentSettingsBody>;

export const AgentCredentialBody = z.object({
  object: z.literal('agent_credential'),
  attributes: z.object({
    credential: z.string().describe('The agent credential, shown once. Send it as a Bearer token.'),
    hypervisor_uuid: z.string().uuid(),
    settings: AgentSettingsBody,
  }),
});
export type AgentCredential = z.infer<typeof AgentCredentialBody>;

export const HeartbeatAckBody = z.object({
  object: z.literal('agent_heartbeat_ack'),
  attributes: z.object({
    hypervisor_uuid: z.string().uuid(),
    status: z.enum(HYPERVISOR_STATUSES),
    maintenance: z.boolean(),
    server_time: z.string(),
    settings: AgentSettingsBody,
  }),
});
export type HeartbeatAck = z.infer<typeof HeartbeatAckBody>;

export const AgentTaskBody = z.object({
  object: z.literal('agent_task'),
  attributes: z.object({
    task_id: z.string().uuid(),
    type: z.string().meta({ example: 'instance.power' }),
    params: z.record(z.string(), z.unknown()),
    step: z
      .string()
      .describe(
        'The step the task is an attempt of: the same for every attempt of one step (a retried attempt supersedes the earlier ones). An agent runs one task of a step at a time: offered a step it is running under an earlier task, it stops that run and lets it end before it starts the new one; offered the very task it is running (its lease lapsed while the panel could not hear it), it goes on with the run it has.',
      ),
    attempt: z.number().int(),
    correlation_id: z.string().nullable(),
    trace_parent: z
      .string()
      .nullable()
      .describe(
        'The W3C `traceparent` of the step that queued the task, while the panel traces (TRACING_ENABLED); null otherwise. An agent that traces runs the task as a span of that trace and sends its reports with a `traceparent` header.',
      ),
    next_sequence: z
      .number()
      .int()
      .describe(
        'The first sequence to report with. A task offered again (its agent died) continues after the last report taken.',
      ),
    lease_expires_at: z.string(),
    created_at: z.string(),
  }),
});
export type AgentTask = z.infer<typeof AgentTaskBody>;

/**
 * The key shared by every attempt of one workflow step (its run and activity), and by nothing
 * else; opaque to agents.
 */
export const stepKey = (task: { workflow_id: string; run_id: string; activity_id: string }) =>
  createHash('sha256')
    .update(`${task.workflow_id}\n${task.run_id}\n${task.activity_id}`)
    .digest('base64url')
    .slice(0, 22);

export const TransferRedemptionBody = z.object({
  object: z.literal('transfer_redemption'),
  attributes: z.object({
    migration_uuid: z.string().uuid(),
    disk: z.string(),
    endpoint: z
      .string()
      .describe(
        "Where the sending hypervisor offers the disk: an address, no secret (what opens it is the move's transport key, which the `disk.transfer` task carries); opaque to the panel.",
      ),
  }),
});
export type TransferRedemption = z.infer<typeof TransferRedemptionBody>;

import type { MigrationRecord } from '../../db/repositories/migrations.js';
import { BLOCKER_CODES, type PreflightReport, WARNING_CODES } from '../../domain/migrations/preflight.js';
import {
  isPastPointOfNoReturn,
  MIGRATION_MODES,
  MIGRATION_STATES,
  MIGRATION_STRATEGIES,
  type MigrationState,
  pointOfNoReturn,
} from '../../domain/migrations/states.js';
import type { Config } from '../../platform/config.js';
import { REDACTED, redactText, SECRET_FIELD_NAMES } from '../../platform/redaction.js';
import { z } from '../zod.js';

/**
 * A migration as administrators see it (SPEC.md §4, §6 rule 2): both sides, the state and its
 * history, the lease, the retention deadline and the Temporal run, and never a secret, a transfer
 * token, a sealed value, an agent task id or where the sending side listens.
 */

const hypervisorRef = z.object({
  uuid: z.string().uuid(),
  name: z.string(),
  location_uuid: z.string().uuid(),
});

export const blocker = z
  .object({ code: z.enum(BLOCKER_CODES), detail: z.string() })
  .openapi('MigrationBlocker', {
    description: 'Why the move cannot happen; the codes are listed in docs/migration.md.',
  });
export const warning = z
  .object({ code: z.enum(WARNING_CODES), detail: z.string() })
  .openapi('MigrationWarning', {
    description: 'What the move will cost; the codes are listed in docs/migration.md.',
  });
const detail = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'What the step found out or why it failed; never a secret or an agent task id.' });

export const MigrationEnvelope = z
  .object({
    object: z.literal('migration'),
    attributes: z.object({
      uuid: z.string().uuid(),
      instance_uuid: z.string().uuid(),
      source: hypervisorRef,
      target: hypervisorRef,
      mode: z.enum(MIGRATION_MODES),
      strategy: z.enum(MIGRATION_STRATEGIES).openapi({ description: 'The strategy in effect.' }),
      state: z.enum(MIGRATION_STATES),
      point_of_no_return: z.enum(MIGRATION_STATES).openapi({
        description:
          'The first state in which the guest runs on the target: LIVE_MIGRATING (live) or STARTING_TARGET (cold).',
      }),
      point_of_no_return_passed: z.boolean().openapi({
        description:
          'Whether the migration has reached its point of no return: from then on cancel and rollback are refused, and a failure waits in RECOVERY_REQUIRED.',
      }),
      requested_by: z.string().openapi({ example: 'admin:9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d' }),
      reason: z.string().nullable(),
      warnings: z.array(warning),
      network_plan: z
        .object({
          mode: z.string().openapi({ example: 'same_ip' }),
          addresses: z.array(z.string()).openapi({
            description: 'Every address of the instance, its floating IPs among them; each keeps its value.',
          }),
          floating_ips: z.array(z.string()).openapi({ description: 'The floating IPs among `addresses`.' }),
          private_nics: z
            .array(z.object({ network_uuid: z.string().uuid(), address: z.string(), mac: z.string() }))
            .openapi({ description: 'Its NICs on private networks, each with its address and MAC.' }),
          interruption_expected: z.boolean(),
        })
        .openapi({
          description:
            'What of the instance’s network moves with it, as it was when the migration was requested ' +
            '(migrations requested before private NICs and floating IPs were listed show them empty).',
        }),
      interruption_ms: z
        .number()
        .int()
        .nullable()
        .openapi({
          description:
            'How long the guest was unreachable in the move, measured: a cold move’s time from the stop on ' +
            'the source to the start on the target, a live move’s downtime as QEMU reported it. Null until ' +
            'the guest runs on the target, for a guest that was stopped, and for migrations begun before it ' +
            'was measured.',
        }),
      history: z.array(z.object({ state: z.enum(MIGRATION_STATES), at: z.string(), detail })),
      failed_step: z.enum(MIGRATION_STATES).nullable(),
      failure: detail.nullable(),
      recovery: z
        .object({
          decision: z.string(),
          reason: z.string().nullable(),
          by: z.string().nullable(),
          failed_step: z.string().nullable(),
        })
        .nullable()
        .openapi({ description: 'The operator decision recorded in RECOVERY_REQUIRED, if any.' }),
      lease: z
        .object({ holder: z.string(), expires_at: z.string() })
        .nullable()
        .openapi({ description: 'The instance’s migration lease while this migration holds it.' }),
      retain_source_until: z
        .string()
        .nullable()
        .openapi({ description: 'After COMPLETED: when the source copy is cleaned up.' }),
      workflow_id: z.string(),
      temporal_ui_url: z
        .string()
        .nullable()
        .openapi({ description: 'The run in the Temporal Web UI; null without TEMPORAL_UI_URL.' }),
      created_at: z.string(),
      updated_at: z.string(),
      finished_at: z.string().nullable(),
    }),
  })
  .openapi('Migration');

export type MigrationBody = z.infer<typeof MigrationEnvelope>;

const SECRET_KEY = new RegExp(`(?:${SECRET_FIELD_NAMES.join('|')}|taskid|taskids|endpoint|sealed)$`);
const SEALED_TEXT = /sealed:v\d+:[A-Za-z0-9._-]*/g;

/** A copy with every key naming a secret, a task or an endpoint left out, and secrets in text replaced. */
function publicValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value.replace(SEALED_TEXT, REDACTED));
  if (Array.isArray(value)) return value.map(publicValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, '')))
      .map(([key, child]) => [key, publicValue(child)]),
  );
}

/** A detail as an administrator may see it: no secret, task or endpoint (the storage moves' serializer uses it too). */
export const publicDetail = (value: Record<string, unknown>) => publicValue(value) as Record<string, unknown>;
const textOrNull = (value: unknown) => (typeof value === 'string' ? redactText(value) : null);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type TemporalLinks = Pick<Config, 'TEMPORAL_UI_URL' | 'TEMPORAL_NAMESPACE'>;

export function temporalUiUrl(links: TemporalLinks, workflowId: string): string | null {
  if (!links.TEMPORAL_UI_URL) return null;
  const base = links.TEMPORAL_UI_URL.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(links.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}`;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];

const isPlannedNic = (nic: unknown): nic is { network_uuid: string; address: string; mac: string } =>
  typeof nic === 'object' &&
  nic !== null &&
  ['network_uuid', 'address', 'mac'].every(
    (key) => typeof (nic as Record<string, unknown>)[key] === 'string',
  );

export function serializeMigration(record: MigrationRecord, links: TemporalLinks): MigrationBody {
  const plan = record.network_plan;
  const recovery = record.recovery;
  return {
    object: 'migration',
    attributes: {
      uuid: record.id,
      instance_uuid: record.instance_id,
      source: {
        uuid: record.source_hypervisor_id,
        name: record.source_name,
        location_uuid: record.source_location_id,
      },
      target: {
        uuid: record.target_hypervisor_id,
        name: record.target_name,
        location_uuid: record.target_location_id,
      },
      mode: record.mode,
      strategy: record.strategy,
      state: record.state,
      point_of_no_return: pointOfNoReturn(record.strategy),
      // Reached at any time: a migration rolled back by an operator's decision passed it too.
      point_of_no_return_passed: record.history.some((h) => isPastPointOfNoReturn(h.state, record.strategy)),
      requested_by: record.requested_by,
      reason: record.reason,
      warnings: record.warnings.map((w) => ({ code: w.code, detail: redactText(w.detail) })),
      network_plan: {
        mode: typeof plan.mode === 'string' ? plan.mode : 'same_ip',
        addresses: strings(plan.addresses),
        floating_ips: strings(plan.floating_ips),
        private_nics: Array.isArray(plan.private_nics) ? plan.private_nics.filter(isPlannedNic) : [],
        interruption_expected: plan.interruption_expected === true,
      },
      interruption_ms: record.interruption_ms,
      history: record.history.map((h) => ({
        state: h.state,
        at: h.at.toISOString(),
        detail: publicDetail(h.detail),
      })),
      failed_step: (record.failed_step as MigrationState | null) ?? null,
      failure: record.failure ? publicDetail(record.failure) : null,
      recovery: recovery
        ? {
            decision: String(recovery.decision),
            reason: textOrNull(recovery.reason),
            by: textOrNull(recovery.by),
            failed_step: textOrNull(recovery.failed_step),
          }
        : null,
      lease:
        record.lease_holder && record.lease_expires_at
          ? { holder: record.lease_holder, expires_at: record.lease_expires_at.toISOString() }
          : null,
      retain_source_until: iso(record.retain_source_until),
      workflow_id: record.workflow_id,
      temporal_ui_url: temporalUiUrl(links, record.workflow_id),
      created_at: record.created_at.toISOString(),
      updated_at: record.updated_at.toISOString(),
      finished_at: iso(record.finished_at),
    },
  };
}

const strategyOrNull = z.enum(MIGRATION_STRATEGIES).nullable();
const named = z.object({ uuid: z.string().uuid(), name: z.string() });

export const MigrationPreflightEnvelope = z
  .object({
    object: z.literal('migration_preflight'),
    attributes: z.object({
      instance_uuid: z.string().uuid(),
      mode: z.enum(MIGRATION_MODES),
      ok: z.boolean().openapi({ description: 'True when there is no blocker: a request would be accepted.' }),
      source: named.nullable(),
      target: named
        .nullable()
        .openapi({ description: 'The requested target, else the best candidate; null when none.' }),
      strategy: strategyOrNull.openapi({ description: 'The strategy the mode would use with the target.' }),
      blockers: z.array(blocker),
      warnings: z.array(warning),
      strategies: z
        .object({
          LIVE_REQUIRED: strategyOrNull,
          LIVE_IF_POSSIBLE: strategyOrNull,
          AUTO: strategyOrNull,
          COLD: strategyOrNull,
        })
        .openapi({ description: 'The strategy each mode would use with the target (null: not possible).' }),
      candidates: z
        .array(named.extend({ strategy: z.enum(MIGRATION_STRATEGIES), free_memory_mb: z.number() }))
        .openapi({ description: 'Hypervisors that could take the instance, best first.' }),
      rejected: z.array(named.extend({ reasons: z.array(blocker) })),
    }),
  })
  .openapi('MigrationPreflight');

export type MigrationPreflightBody = z.infer<typeof MigrationPreflightEnvelope>;

export function serializePreflight(
  report: PreflightReport & { instance_uuid: string; source: { id: string; name: string } | null },
): MigrationPreflightBody {
  const ref = (h: { id: string; name: string }) => ({ uuid: h.id, name: h.name });
  return {
    object: 'migration_preflight',
    attributes: {
      instance_uuid: report.instance_uuid,
      mode: report.mode,
      ok: report.ok,
      source: report.source && ref(report.source),
      target: report.target && ref(report.target),
      strategy: report.strategy,
      blockers: report.blockers.map((b) => ({ code: b.code, detail: b.detail })),
      warnings: report.warnings.map((w) => ({ code: w.code, detail: w.detail })),
      strategies: report.strategies,
      candidates: report.candidates.map((c) => ({
        ...ref(c),
        strategy: c.strategy,
        free_memory_mb: c.free_memory_mb,
      })),
      rejected: report.rejected.map((r) => ({
        ...ref(r),
        reasons: r.reasons.map((b) => ({ code: b.code, detail: b.detail })),
      })),
    },
  };
}

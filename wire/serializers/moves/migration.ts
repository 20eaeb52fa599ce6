import type { MigrationRecord } from '../../../db/repositories/moves/migration-records.js';
import { BLOCKER_CODES, type PreflightReport } from '../../../domain/migrations/preflight.js';
import {
  isPastPointOfNoReturn,
  MIGRATION_MODES,
  MIGRATION_STATES,
  MIGRATION_STRATEGIES,
  pointOfNoReturn,
} from '../../../domain/migrations/states.js';
import { z } from '../../zod.js';
import { ConvergencePolicyBody } from './convergence.js';
import { LiveProgressBody, serializeLiveProgress } from './live-progress.js';
import { isoOrNull, moveFields, serializeMoveFields, type TemporalLinks, warning } from './move.js';

/**
 * A migration as administrators see it (SPEC.md §4, §6 rule 2): what every move shows (move.ts),
 * with both sides, the network it carries, the interruption and the retention deadline of the
 * source.
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

const move = moveFields(MIGRATION_STATES, {
  noun: 'migration',
  pointOfNoReturn:
    'The step in which the guest first runs on the target: LIVE_MIGRATING (live: at its switchover inside that step, QEMU completing the move or post-copy starting; before it a cancel or a timeout rolls back) or STARTING_TARGET (cold).',
});

export const MigrationEnvelope = z
  .object({
    object: z.literal('migration'),
    attributes: z.object({
      ...move.identity,
      source: hypervisorRef,
      target: hypervisorRef,
      ...move.course,
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
      convergence: ConvergencePolicyBody.nullable().openapi({
        description:
          'The convergence policy in force (a live move takes it; a cold one records it unused). Null for ' +
          'migrations requested before moves had one.',
      }),
      live_progress: LiveProgressBody.nullable().openapi({
        description:
          'A live move’s figures while its memory moves, then its measured downtime and total time. Null for a cold ' +
          'move, before the first report, and for migrations run before the figures were kept.',
      }),
      ...move.outcome,
      retain_source_until: z
        .string()
        .nullable()
        .openapi({ description: 'After COMPLETED: when the source copy is cleaned up.' }),
      ...move.run,
    }),
  })
  .openapi('Migration');

export type MigrationBody = z.infer<typeof MigrationEnvelope>;

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
  const shared = serializeMoveFields(
    record,
    {
      pointOfNoReturn: pointOfNoReturn(record.strategy),
      // Reached at any time: a migration rolled back by an operator's decision passed it too.
      passed: record.history.some((h) => isPastPointOfNoReturn(h.state, record.strategy)),
    },
    links,
  );
  return {
    object: 'migration',
    attributes: {
      ...shared.identity,
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
      ...shared.course,
      network_plan: {
        mode: typeof plan.mode === 'string' ? plan.mode : 'same_ip',
        addresses: strings(plan.addresses),
        floating_ips: strings(plan.floating_ips),
        private_nics: Array.isArray(plan.private_nics) ? plan.private_nics.filter(isPlannedNic) : [],
        interruption_expected: plan.interruption_expected === true,
      },
      interruption_ms: record.interruption_ms,
      convergence: record.convergence,
      live_progress: serializeLiveProgress(record.live_progress),
      ...shared.outcome,
      retain_source_until: isoOrNull(record.retain_source_until),
      ...shared.run,
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

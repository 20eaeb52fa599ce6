import type { EvacuationItemRow } from '../../../db/repositories/moves/evacuation-items.js';
import type { EvacuationRow } from '../../../db/repositories/moves/evacuations.js';
import {
  EVACUATION_ITEM_STATES,
  EVACUATION_KINDS,
  EVACUATION_STATES,
  type EvacuationItemState,
  FAILURE_POLICIES,
} from '../../../domain/evacuations/states.js';
import { MIGRATION_MODES, MIGRATION_STATES } from '../../../domain/migrations/states.js';
import { STORAGE_MOVE_STATES } from '../../../domain/storage-moves/states.js';
import { z } from '../../zod.js';
import { ConvergencePolicyBody } from './convergence.js';

/**
 * An evacuation as administrators see it: its node, its policy, its state, how many of its
 * instances stand where, and (shown alone) each instance with its migration and why it did not
 * move, read from the records its run keeps.
 */

const ref = z.object({ uuid: z.string().uuid(), name: z.string() });
const finding = z.object({ code: z.string(), detail: z.string() });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const EvacuationItem = z
  .object({
    instance: ref,
    state: z.enum(EVACUATION_ITEM_STATES),
    attempts: z.number().int(),
    migration_uuid: z.string().uuid().nullable(),
    migration_state: z.enum(MIGRATION_STATES).nullable(),
    storage_move_uuid: z
      .string()
      .uuid()
      .nullable()
      .openapi({ description: 'A backend drain’s move of its disks.' }),
    storage_move_state: z.enum(STORAGE_MOVE_STATES).nullable(),
    target: ref.nullable(),
    reasons: z.array(finding).openapi({ description: 'Why it is blocked, failed, waits or was left.' }),
    not_before: z.string().nullable().openapi({ description: 'A busy instance is tried again after this.' }),
    updated_at: z.string(),
  })
  .openapi('EvacuationInstance');

const progress = z
  .object(
    Object.fromEntries(EVACUATION_ITEM_STATES.map((s) => [s, z.number().int()])) as Record<
      EvacuationItemState,
      z.ZodNumber
    >,
  )
  .extend({ total: z.number().int() })
  .openapi('EvacuationProgress', { description: 'How many of its instances are in each state.' });

export const EvacuationEnvelope = z
  .object({
    object: z.literal('evacuation'),
    attributes: z.object({
      uuid: z.string().uuid(),
      hypervisor: ref,
      kind: z.enum(EVACUATION_KINDS).openapi({
        description:
          '`hypervisor`: its instances migrate away; `backend`: their disks on `from_backend` move to ' +
          '`to_backend`; `restore`: the instances the evacuation `restores` moved migrate home to `hypervisor`.',
      }),
      from_backend: z.string().nullable(),
      to_backend: z.string().nullable(),
      restores: z
        .string()
        .uuid()
        .nullable()
        .openapi({ description: 'A restore’s evacuation: the one whose moved instances it brings home.' }),
      state: z.enum(EVACUATION_STATES),
      policy: z.object({
        mode: z.enum(MIGRATION_MODES),
        max_parallel: z.number().int(),
        max_parallel_per_target: z.number().int(),
        on_failure: z.enum(FAILURE_POLICIES),
        max_attempts: z.number().int(),
        convergence: ConvergencePolicyBody.nullable().openapi({
          description:
            'The convergence policy its migrations take; null for a backend drain and for evacuations begun ' +
            'before drains had one (their moves take the defaults of the moment).',
        }),
      }),
      progress,
      requested_by: z.string(),
      reason: z.string().nullable(),
      failure: z.record(z.string(), z.unknown()).nullable(),
      workflow_id: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
      finished_at: z.string().nullable(),
      instances: z
        .array(EvacuationItem)
        .optional()
        .openapi({ description: 'Shown when one evacuation is shown.' }),
    }),
  })
  .openapi('Evacuation');

export function serializeEvacuation(
  row: EvacuationRow,
  counts: Partial<Record<EvacuationItemState, number>>,
  items?: readonly EvacuationItemRow[],
): z.infer<typeof EvacuationEnvelope> {
  const byState = Object.fromEntries(EVACUATION_ITEM_STATES.map((s) => [s, counts[s] ?? 0])) as Record<
    EvacuationItemState,
    number
  >;
  return {
    object: 'evacuation',
    attributes: {
      uuid: row.id,
      hypervisor: { uuid: row.hypervisor_id, name: row.hypervisor_name },
      kind: row.kind,
      from_backend: row.from_backend,
      to_backend: row.to_backend,
      restores: row.restores,
      state: row.state,
      policy: {
        mode: row.mode,
        max_parallel: row.max_parallel,
        max_parallel_per_target: row.max_parallel_per_target,
        on_failure: row.on_failure,
        max_attempts: row.max_attempts,
        convergence: row.convergence,
      },
      progress: { ...byState, total: Object.values(byState).reduce((a, b) => a + b, 0) },
      requested_by: row.requested_by,
      reason: row.reason,
      failure: row.failure,
      workflow_id: row.workflow_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      finished_at: iso(row.finished_at),
      ...(items
        ? {
            instances: items.map((i) => ({
              instance: { uuid: i.instance_id, name: i.instance_name },
              state: i.state,
              attempts: i.attempts,
              migration_uuid: i.migration_id,
              migration_state: i.migration_state,
              storage_move_uuid: i.storage_move_id,
              storage_move_state: i.storage_move_state,
              target: i.target_hypervisor_id
                ? { uuid: i.target_hypervisor_id, name: i.target_name ?? '' }
                : null,
              reasons: i.reasons,
              not_before: iso(i.not_before),
              updated_at: i.updated_at.toISOString(),
            })),
          }
        : {}),
    },
  };
}

export type EvacuationBody = z.infer<typeof EvacuationEnvelope>;

/** One evacuation shown alone (services/evacuations/show.ts): with its progress and each of its instances. */
export const serializeShownEvacuation = (shown: {
  readonly evacuation: EvacuationRow;
  readonly counts: Partial<Record<EvacuationItemState, number>>;
  readonly items: readonly EvacuationItemRow[];
}): EvacuationBody => serializeEvacuation(shown.evacuation, shown.counts, shown.items);

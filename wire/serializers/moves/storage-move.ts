import type { StorageMoveRecord } from '../../../db/repositories/moves/storage-move-reads.js';
import { STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { MIGRATION_MODES, MIGRATION_STRATEGIES } from '../../../domain/migrations/states.js';
import { STORAGE_BLOCKER_CODES, type StorageMoveReport } from '../../../domain/storage-moves/preflight.js';
import {
  isPastSwitch,
  STORAGE_MOVE_STATES,
  STORAGE_POINT_OF_NO_RETURN,
} from '../../../domain/storage-moves/states.js';
import { z } from '../../zod.js';
import { isoOrNull, moveFields, serializeMoveFields, type TemporalLinks, warning } from './move.js';

/**
 * A storage move as administrators see it: what every move shows (move.ts), with its hypervisor,
 * both backends, the disks and the retention deadline of the old copies.
 */

const disk = z.object({ disk: z.string().openapi({ example: 'root' }), size_mb: z.number().int() });

const move = moveFields(STORAGE_MOVE_STATES, {
  noun: 'storage move',
  pointOfNoReturn: 'SWITCHING: the first state in which the guest uses the new copies.',
});

export const StorageMoveEnvelope = z
  .object({
    object: z.literal('storage_move'),
    attributes: z.object({
      ...move.identity,
      hypervisor: z.object({ uuid: z.string().uuid(), name: z.string() }),
      from_backend: z.string(),
      to_backend: z.string(),
      disks: z.array(disk).openapi({ description: 'The disks that move: `root`, `volume-<uuid>`.' }),
      ...move.course,
      ...move.outcome,
      retain_until: z
        .string()
        .nullable()
        .openapi({ description: 'After COMPLETED: when the old copies go.' }),
      ...move.run,
    }),
  })
  .openapi('StorageMove');

export function serializeStorageMove(
  record: StorageMoveRecord,
  links: TemporalLinks,
): z.infer<typeof StorageMoveEnvelope> {
  const shared = serializeMoveFields(
    record,
    {
      pointOfNoReturn: STORAGE_POINT_OF_NO_RETURN,
      passed: record.history.some((h) => isPastSwitch(h.state) && h.state !== 'RECOVERY_REQUIRED'),
    },
    links,
  );
  return {
    object: 'storage_move',
    attributes: {
      ...shared.identity,
      hypervisor: { uuid: record.hypervisor_id, name: record.hypervisor_name },
      from_backend: record.from_backend,
      to_backend: record.to_backend,
      disks: record.disks,
      ...shared.course,
      ...shared.outcome,
      retain_until: isoOrNull(record.retain_until),
      ...shared.run,
    },
  };
}

const blocker = z
  .object({ code: z.enum(STORAGE_BLOCKER_CODES), detail: z.string() })
  .openapi('StorageMoveBlocker');

export const StorageMovePreflightEnvelope = z
  .object({
    object: z.literal('storage_move_preflight'),
    attributes: z.object({
      instance_uuid: z.string().uuid(),
      from_backend: z.enum(STORAGE_BACKENDS),
      to_backend: z.enum(STORAGE_BACKENDS),
      mode: z.enum(MIGRATION_MODES),
      ok: z.boolean(),
      strategy: z.enum(MIGRATION_STRATEGIES).nullable(),
      disks: z.array(disk),
      blockers: z.array(blocker),
      warnings: z.array(warning),
    }),
  })
  .openapi('StorageMovePreflight');

export function serializeStorageMovePreflight(
  instanceId: string,
  request: { from: (typeof STORAGE_BACKENDS)[number]; to: (typeof STORAGE_BACKENDS)[number] },
  report: StorageMoveReport,
): z.infer<typeof StorageMovePreflightEnvelope> {
  return {
    object: 'storage_move_preflight',
    attributes: {
      instance_uuid: instanceId,
      from_backend: request.from,
      to_backend: request.to,
      mode: report.mode,
      ok: report.ok,
      strategy: report.strategy,
      disks: report.disks.map((d) => ({ disk: d.disk, size_mb: d.sizeMb })),
      blockers: report.blockers,
      warnings: report.warnings,
    },
  };
}

export type StorageMoveBody = z.infer<typeof StorageMoveEnvelope>;
export type StorageMovePreflightBody = z.infer<typeof StorageMovePreflightEnvelope>;

import type { StorageMoveRecord } from '../../db/repositories/storage-move-reads.js';
import { STORAGE_BACKENDS } from '../../domain/hypervisors.js';
import { MIGRATION_MODES, MIGRATION_STRATEGIES } from '../../domain/migrations/states.js';
import { STORAGE_BLOCKER_CODES, type StorageMoveReport } from '../../domain/storage-moves/preflight.js';
import {
  isPastSwitch,
  STORAGE_MOVE_STATES,
  STORAGE_POINT_OF_NO_RETURN,
} from '../../domain/storage-moves/states.js';
import { z } from '../zod.js';
import { publicDetail, type TemporalLinks, temporalUiUrl, warning } from './migration.js';

/** A storage move as administrators see it: the disks, both backends, its state and history, its run. */

const detail = z.record(z.string(), z.unknown());
const disk = z.object({ disk: z.string().openapi({ example: 'root' }), size_mb: z.number().int() });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const StorageMoveEnvelope = z
  .object({
    object: z.literal('storage_move'),
    attributes: z.object({
      uuid: z.string().uuid(),
      instance_uuid: z.string().uuid(),
      hypervisor: z.object({ uuid: z.string().uuid(), name: z.string() }),
      from_backend: z.string(),
      to_backend: z.string(),
      disks: z.array(disk).openapi({ description: 'The disks that move: `root`, `volume-<uuid>`.' }),
      mode: z.enum(MIGRATION_MODES),
      strategy: z.enum(MIGRATION_STRATEGIES),
      state: z.enum(STORAGE_MOVE_STATES),
      point_of_no_return: z.enum(STORAGE_MOVE_STATES),
      point_of_no_return_passed: z.boolean(),
      requested_by: z.string(),
      reason: z.string().nullable(),
      warnings: z.array(warning),
      history: z.array(z.object({ state: z.enum(STORAGE_MOVE_STATES), at: z.string(), detail })),
      failed_step: z.string().nullable(),
      failure: detail.nullable(),
      recovery: detail.nullable(),
      lease: z.object({ holder: z.string(), expires_at: z.string() }).nullable(),
      retain_until: z
        .string()
        .nullable()
        .openapi({ description: 'After COMPLETED: when the old copies go.' }),
      workflow_id: z.string(),
      temporal_ui_url: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
      finished_at: z.string().nullable(),
    }),
  })
  .openapi('StorageMove');

export function serializeStorageMove(
  move: StorageMoveRecord,
  links: TemporalLinks,
): z.infer<typeof StorageMoveEnvelope> {
  return {
    object: 'storage_move',
    attributes: {
      uuid: move.id,
      instance_uuid: move.instance_id,
      hypervisor: { uuid: move.hypervisor_id, name: move.hypervisor_name },
      from_backend: move.from_backend,
      to_backend: move.to_backend,
      disks: move.disks,
      mode: move.mode,
      strategy: move.strategy,
      state: move.state,
      point_of_no_return: STORAGE_POINT_OF_NO_RETURN,
      point_of_no_return_passed: move.history.some(
        (h) => isPastSwitch(h.state) && h.state !== 'RECOVERY_REQUIRED',
      ),
      requested_by: move.requested_by,
      reason: move.reason,
      warnings: move.warnings,
      history: move.history.map((h) => ({
        state: h.state,
        at: h.at.toISOString(),
        detail: publicDetail(h.detail),
      })),
      failed_step: move.failed_step,
      failure: move.failure ? publicDetail(move.failure) : null,
      recovery: move.recovery ? publicDetail(move.recovery) : null,
      lease:
        move.lease_holder && move.lease_expires_at
          ? { holder: move.lease_holder, expires_at: move.lease_expires_at.toISOString() }
          : null,
      retain_until: iso(move.retain_until),
      workflow_id: move.workflow_id,
      temporal_ui_url: temporalUiUrl(links, move.workflow_id),
      created_at: move.created_at.toISOString(),
      updated_at: move.updated_at.toISOString(),
      finished_at: iso(move.finished_at),
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

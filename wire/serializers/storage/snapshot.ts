import type { SnapshotRow } from '../../../db/repositories/storage/snapshots.js';
import { SNAPSHOT_STATES } from '../../../domain/backups.js';
import { z } from '../../zod.js';
import { artifactAttributes } from './artifact.js';

export const SnapshotEnvelope = z
  .object({
    object: z.literal('snapshot'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string(),
      state: z.enum(SNAPSHOT_STATES).openapi({ example: 'available' }),
      size_mb: z.number().int().nullable(),
      checksum: z.string().nullable().openapi({ description: 'SHA-256 of the content, as taken.' }),
      error: z
        .object({ code: z.string(), message: z.string() })
        .nullable()
        .openapi({ description: 'Why it failed; null otherwise.' }),
      created_at: z.string(),
      completed_at: z.string().nullable(),
    }),
  })
  .openapi('Snapshot');

export function serializeSnapshot(row: SnapshotRow): z.infer<typeof SnapshotEnvelope> {
  return {
    object: 'snapshot',
    attributes: artifactAttributes(row),
  };
}

import type { BackupRow } from '../../../db/repositories/storage/backups.js';
import { BACKUP_STATES } from '../../../domain/backups.js';
import { z } from '../../zod.js';
import { artifactAttributes } from './artifact.js';

const FailureSchema = z
  .object({ code: z.string(), message: z.string() })
  .nullable()
  .openapi({ description: 'Why it failed or is corrupt; null otherwise.' });

export const BackupEnvelope = z
  .object({
    object: z.literal('backup'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string(),
      state: z.enum(BACKUP_STATES).openapi({ example: 'available' }),
      size_mb: z.number().int().nullable().openapi({ description: 'Known once the backup is written.' }),
      checksum: z.string().nullable().openapi({
        description: 'SHA-256 of the content, as written; what verify and restores compare against.',
      }),
      protected: z
        .boolean()
        .openapi({ description: 'Protected backups are never removed by retention or deleted.' }),
      schedule: z
        .string()
        .uuid()
        .nullable()
        .openapi({ description: 'The backup schedule that made it; null when made on request.' }),
      error: FailureSchema,
      created_at: z.string(),
      completed_at: z.string().nullable(),
      verified_at: z.string().nullable().openapi({ description: 'When a verify last found it intact.' }),
    }),
  })
  .openapi('Backup');

/** The only way a backup row reaches a response: the store's internals and agents' messages stay out. */
export function serializeBackup(row: BackupRow): z.infer<typeof BackupEnvelope> {
  return {
    object: 'backup',
    attributes: {
      ...artifactAttributes(row),
      protected: row.protected,
      schedule: row.policy_id,
      verified_at: row.verified_at?.toISOString() ?? null,
    },
  };
}

import { BACKUP_STATES, SNAPSHOT_STATES } from '../../domain/backups.js';
import { BackupEnvelope, serializeBackup } from '../serializers/storage/backup.js';
import { SnapshotEnvelope, serializeSnapshot } from '../serializers/storage/snapshot.js';
import { z } from '../zod.js';
import { at, atOrNull, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

/** What a backup and a snapshot both record: the columns artifactAttributes reads. */
const artifact = {
  id: z.string(),
  instance_id: z.string(),
  name: z.string(),
  size_mb: z.number().int().nullable(),
  checksum: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: at,
  completed_at: atOrNull,
};

const BackupSnapshot = z.object({
  ...artifact,
  state: z.enum(BACKUP_STATES),
  protected: z.boolean(),
  policy_id: z.string().nullable(),
  verified_at: atOrNull,
});
const SnapshotSnapshot = z.object({ ...artifact, state: z.enum(SNAPSHOT_STATES) });

const exampleArtifact = (id: string, name: string, state: string) => ({
  id,
  instance_id: EXAMPLE_IDS.instance,
  name,
  state,
  size_mb: state === 'failed' ? null : 3172,
  checksum: state === 'failed' ? null : `sha256:${'4e1f'.repeat(16)}`,
  error: state === 'failed' ? { code: 'AGENT_TASK_FAILED', message: 'The disk could not be read.' } : null,
  created_at: EXAMPLE_AT,
  completed_at: EXAMPLE_AT,
});

export const backupPresenter: EventPresenter<typeof BackupEnvelope> = {
  schema: BackupEnvelope,
  present: (snapshot) => serializeBackup(BackupSnapshot.parse(snapshot)),
  example: (state) => ({
    ...exampleArtifact('9d2c4e6f-8a1b-4c3d-9e5f-7a9b1c3d5e7f', 'before-upgrade', state),
    protected: false,
    policy_id: null,
    verified_at: null,
  }),
};

export const snapshotPresenter: EventPresenter<typeof SnapshotEnvelope> = {
  schema: SnapshotEnvelope,
  present: (snapshot) => serializeSnapshot(SnapshotSnapshot.parse(snapshot)),
  example: (state) => exampleArtifact('1a3c5e7f-9b2d-4f6a-8c1e-3b5d7f9a2c4e', 'pre-deploy', state),
};

import type { Database } from '../db/database.js';
import type { EvacuationMoves } from '../domain/evacuations/moves.js';
import type { Config } from '../platform/config.js';
import { createAgentTaskActivities } from './agent-tasks.js';
import { createBackupScheduleActivities } from './backup-schedules.js';
import { createBackupActivities } from './backups.js';
import { createEvacuationActivities } from './evacuations.js';
import { createInstanceActivities } from './instances.js';
import { createIsoActivities } from './isos.js';
import { createMigrationActivities } from './migrations.js';
import { createNetworkActivities } from './networks.js';
import { createOperationActivities } from './operations.js';
import { createProviderActivities } from './providers.js';
import { createScheduledActionActivities } from './scheduled-actions.js';
import { createStorageMoveActivities } from './storage-moves.js';
import { createVolumeActivities } from './volumes.js';

export function createActivities(
  db: Database,
  config: Pick<Config, 'SECRETS_KEY' | 'MAX_BACKUPS_PER_INSTANCE'>,
  /** What the evacuation's steps need of the services (the worker supplies it). */
  moves: EvacuationMoves,
) {
  return {
    ...createAgentTaskActivities(db),
    ...createOperationActivities(db),
    ...createInstanceActivities(db),
    ...createBackupActivities(db),
    ...createBackupScheduleActivities(db, config),
    ...createMigrationActivities(db, config.SECRETS_KEY),
    ...createNetworkActivities(db),
    ...createProviderActivities(db, config.SECRETS_KEY),
    ...createScheduledActionActivities(db),
    ...createVolumeActivities(db),
    ...createIsoActivities(db),
    ...createEvacuationActivities(db, moves),
    ...createStorageMoveActivities(db),
  };
}

export type Activities = ReturnType<typeof createActivities>;

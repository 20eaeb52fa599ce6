import type { Database } from '../db/database.js';
import type { ReverseDnsWaking } from '../domain/dns/publishing.js';
import type { EvacuationMoves } from '../domain/evacuations/moves.js';
import type { ResizeMoves } from '../domain/instances/resize-moves.js';
import type { Config } from '../platform/config.js';
import { createAgentTaskActivities } from './agent-tasks.js';
import { createBackupScheduleActivities } from './backup-schedules.js';
import { createBackupActivities } from './backups.js';
import { createEvacuationActivities } from './evacuations.js';
import { createImageActivities } from './images.js';
import { createInstanceActivities } from './instances.js';
import { createIsoActivities } from './isos.js';
import { createMigrationActivities } from './migrations.js';
import { createNetworkActivities } from './networks.js';
import { createOperationActivities } from './operations.js';
import { createProviderActivities } from './providers.js';
import { createResizeActivities } from './resizes.js';
import { createReverseDnsActivities } from './reverse-dns.js';
import { createScheduledActionActivities } from './scheduled-actions.js';
import { createStorageMoveActivities } from './storage-moves.js';
import { createVolumeActivities } from './volumes.js';
import { createWebhookActivities, type WebhookSettings } from './webhooks.js';

export function createActivities(
  db: Database,
  config: Pick<Config, 'SECRETS_KEY' | 'MAX_BACKUPS_PER_INSTANCE'> & WebhookSettings,
  /** What the evacuation's and a moving plan change's steps need of the services (the worker supplies it). */
  moves: EvacuationMoves & ResizeMoves,
  /** What the steps that give addresses back need of the services (the worker supplies it). */
  dns: ReverseDnsWaking,
) {
  return {
    ...createAgentTaskActivities(db),
    ...createOperationActivities(db),
    ...createInstanceActivities(db, dns),
    ...createResizeActivities(db, moves),
    ...createBackupActivities(db),
    ...createBackupScheduleActivities(db, config),
    ...createMigrationActivities(db, config.SECRETS_KEY),
    ...createNetworkActivities(db, dns),
    ...createProviderActivities(db, config.SECRETS_KEY),
    ...createReverseDnsActivities(db, config.SECRETS_KEY),
    ...createScheduledActionActivities(db),
    ...createVolumeActivities(db),
    ...createIsoActivities(db),
    ...createImageActivities(db),
    ...createEvacuationActivities(db, moves),
    ...createStorageMoveActivities(db),
    ...createWebhookActivities(db, config),
  };
}

export type Activities = ReturnType<typeof createActivities>;

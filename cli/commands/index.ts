import type { Command } from '../command.js';
import { backendDrainPlanCommand } from './evacuations/backend-drain-plan.js';
import { backendDrainStartCommand } from './evacuations/backend-drain-start.js';
import {
  evacuationCancelCommand,
  evacuationPauseCommand,
  evacuationResumeCommand,
} from './evacuations/control.js';
import { evacuationPlanCommand } from './evacuations/plan.js';
import { evacuationRestoreCommand } from './evacuations/restore.js';
import { evacuationStartCommand } from './evacuations/start.js';
import { evacuationStatusCommand } from './evacuations/status.js';
import { hypervisorsListCommand } from './hypervisors/list.js';
import { instancesListCommand } from './instances/list.js';
import { keysCreate } from './keys/create.js';
import { keysRevoke } from './keys/revoke.js';
import { migrationHealthCommand } from './migrations/health.js';
import { migrationsListCommand } from './migrations/list.js';
import { migrationPreflightCommand } from './migrations/preflight.js';
import { migrationRecoverCommand } from './migrations/recover.js';
import { migrationStartCommand } from './migrations/start.js';
import { migrationStatusCommand } from './migrations/status.js';
import { storageMovePreflightCommand } from './storage-moves/preflight.js';
import { storageMoveRecoverCommand } from './storage-moves/recover.js';
import { storageMoveStartCommand } from './storage-moves/start.js';
import { storageMoveStatusCommand } from './storage-moves/status.js';
import { usersCreate } from './users/create.js';
import { usersQuotas } from './users/quotas.js';
import { workflowReplay } from './workflows/replay.js';

/** Every operator command; the `cloudsvc:migration:*` ones are SPEC.md §4's, `cloudsvc:evacuation:*` drain a node. */
export const COMMANDS: readonly Command[] = [
  usersCreate,
  usersQuotas,
  keysCreate,
  keysRevoke,
  workflowReplay,
  hypervisorsListCommand,
  instancesListCommand,
  migrationsListCommand,
  migrationPreflightCommand,
  migrationStartCommand,
  migrationStatusCommand,
  migrationRecoverCommand,
  migrationHealthCommand,
  evacuationPlanCommand,
  evacuationStartCommand,
  evacuationStatusCommand,
  evacuationPauseCommand,
  evacuationResumeCommand,
  evacuationCancelCommand,
  evacuationRestoreCommand,
  storageMovePreflightCommand,
  storageMoveStartCommand,
  storageMoveStatusCommand,
  storageMoveRecoverCommand,
  backendDrainPlanCommand,
  backendDrainStartCommand,
];

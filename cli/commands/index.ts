import type { Command } from '../command.js';
import { backendDrainPlanCommand } from './backend-drain-plan.js';
import { backendDrainStartCommand } from './backend-drain-start.js';
import {
  evacuationCancelCommand,
  evacuationPauseCommand,
  evacuationResumeCommand,
} from './evacuation-control.js';
import { evacuationPlanCommand } from './evacuation-plan.js';
import { evacuationStartCommand } from './evacuation-start.js';
import { evacuationStatusCommand } from './evacuation-status.js';
import { hypervisorsListCommand } from './hypervisors-list.js';
import { instancesListCommand } from './instances-list.js';
import { keysCreate } from './keys-create.js';
import { keysRevoke } from './keys-revoke.js';
import { migrationHealthCommand } from './migration-health.js';
import { migrationPreflightCommand } from './migration-preflight.js';
import { migrationRecoverCommand } from './migration-recover.js';
import { migrationStartCommand } from './migration-start.js';
import { migrationStatusCommand } from './migration-status.js';
import { migrationsListCommand } from './migrations-list.js';
import { storageMovePreflightCommand } from './storage-move-preflight.js';
import { storageMoveStartCommand } from './storage-move-start.js';
import { storageMoveStatusCommand } from './storage-move-status.js';
import { usersCreate } from './users-create.js';
import { workflowReplay } from './workflow-replay.js';

/** Every operator command; the `cloudsvc:migration:*` ones are SPEC.md §4's, `cloudsvc:evacuation:*` drain a node. */
export const COMMANDS: readonly Command[] = [
  usersCreate,
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
  storageMovePreflightCommand,
  storageMoveStartCommand,
  storageMoveStatusCommand,
  backendDrainPlanCommand,
  backendDrainStartCommand,
];

import type { Command } from '../command.js';
import { keysCreate } from './keys-create.js';
import { keysRevoke } from './keys-revoke.js';
import { usersCreate } from './users-create.js';
import { workflowReplay } from './workflow-replay.js';

/** Every operator command. The `cloudsvc:migration:*` commands of SPEC.md §4 join this list. */
export const COMMANDS: readonly Command[] = [usersCreate, keysCreate, keysRevoke, workflowReplay];

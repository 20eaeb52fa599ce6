import type { Database } from '../db/database.js';
import { createAgentTaskActivities } from './agent-tasks.js';
import { createInstanceActivities } from './instances.js';
import { createOperationActivities } from './operations.js';

export function createActivities(db: Database) {
  return {
    ...createAgentTaskActivities(db),
    ...createOperationActivities(db),
    ...createInstanceActivities(db),
  };
}

export type Activities = ReturnType<typeof createActivities>;

import type { Database } from '../db/database.js';
import { createAgentTaskActivities } from './agent-tasks.js';
import { createOperationActivities } from './operations.js';

export function createActivities(db: Database) {
  return { ...createAgentTaskActivities(db), ...createOperationActivities(db) };
}

export type Activities = ReturnType<typeof createActivities>;

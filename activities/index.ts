import type { Database } from '../db/database.js';
import { createAgentTaskActivities } from './agent-tasks.js';
import { createInstanceActivities } from './instances.js';

export function createActivities(db: Database) {
  return { ...createAgentTaskActivities(db), ...createInstanceActivities(db) };
}

export type Activities = ReturnType<typeof createActivities>;

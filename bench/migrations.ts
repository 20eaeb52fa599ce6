/**
 * A migration's control-plane time: a running instance moved back and forth between two
 * hypervisors whose agents run the zero-latency simulated driver, each counted from the request
 * (the service call the admin API and the CLI make) to COMPLETED, when the target is
 * authoritative, and to CLEANED_UP with no retention window. What remains is the panel's own work:
 * Temporal steps, agent round trips and the bookkeeping of each state.
 */

import type { Database } from '../db/database.js';
import { findMigration } from '../db/repositories/moves/migration-records.js';
import type { Actor } from '../domain/actors.js';
import type { ServiceDeps } from '../services/context.js';
import { requestMigration } from '../services/migrations/request.js';

export interface MigrationTimes {
  readonly completedMs: number[];
  readonly cleanedUpMs: number[];
  readonly failures: string[];
}

const LIMIT_MS = 30_000;

async function until(db: Database, migrationId: string, states: readonly string[], since: number) {
  for (;;) {
    const migration = await findMigration(db, migrationId);
    if (migration && states.includes(migration.state))
      return { state: migration.state, ms: performance.now() - since };
    if (performance.now() - since > LIMIT_MS) return { state: migration?.state ?? 'unknown', ms: Number.NaN };
    await new Promise((r) => setTimeout(r, 2));
  }
}

export async function runMigrations(input: {
  deps: ServiceDeps;
  pollDb: Database;
  admin: Actor;
  instanceId: string;
  hypervisorIds: readonly [string, string];
  count: number;
}): Promise<MigrationTimes> {
  const times: MigrationTimes = { completedMs: [], cleanedUpMs: [], failures: [] };
  for (let i = 0; i < input.count; i++) {
    const target = input.hypervisorIds[(i + 1) % 2]!;
    const started = performance.now();
    try {
      const { migrationId } = await requestMigration(input.deps, input.admin, {
        instanceId: input.instanceId,
        targetId: target,
        mode: 'AUTO',
        correlationId: `bench-migration-${i}`,
      });
      const committed = await until(
        input.pollDb,
        migrationId,
        ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED'],
        started,
      );
      const cleaned = await until(
        input.pollDb,
        migrationId,
        ['CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED'],
        started,
      );
      if (cleaned.state !== 'CLEANED_UP') {
        times.failures.push(`ended ${cleaned.state}`);
        continue;
      }
      times.completedMs.push(committed.ms);
      times.cleanedUpMs.push(cleaned.ms);
    } catch (error) {
      times.failures.push((error as Error).message);
    }
  }
  return times;
}

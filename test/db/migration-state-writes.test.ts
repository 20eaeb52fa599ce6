import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import {
  IllegalMigrationTransition,
  recordMigrationState,
} from '../../db/repositories/moves/migration-states.js';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import type { MigrationStrategy } from '../../domain/migrations/states.js';
import { seed } from '../support/seed.js';

/**
 * Every write of a migration state is a compare-and-set on the states domain/migrations/states.ts
 * allows before it: an illegal transition fails loudly and changes nothing.
 */
let handle: DatabaseHandle;
beforeAll(() => {
  handle = createDatabase({ url: inject('databaseUrl'), poolSize: 2, namedStatements: false });
});
afterAll(() => handle.close());

async function newMigration(strategy: MigrationStrategy) {
  const { db } = handle;
  const user = await seed.user(db);
  const location = await seed.location(db);
  const source = await seed.hypervisor(db, location.id);
  const target = await seed.hypervisor(db, location.id);
  const instance = await seed.instance(db, {
    userId: user.id,
    locationId: location.id,
    hypervisorId: source.id,
  });
  const id = randomUUID();
  await insertMigration(db, {
    id,
    instanceId: instance.id,
    sourceHypervisorId: source.id,
    targetHypervisorId: target.id,
    mode: strategy === 'live' ? 'LIVE_REQUIRED' : 'COLD',
    strategy,
    operationId: randomUUID(),
    workflowId: `migration-state-writes-${id}`,
    requestedBy: 'admin:test',
    reason: null,
    warnings: [],
    networkPlan: {},
  });
  return id;
}

const stateOf = async (id: string) => (await findMigration(handle.db, id))?.state;

describe('writing a migration state', () => {
  it('moves along the table, and takes the same state twice as one write', async () => {
    const id = await newMigration('live');
    await recordMigrationState(handle.db, id, 'READY');
    await recordMigrationState(handle.db, id, 'READY', { again: true });
    await recordMigrationState(handle.db, id, 'PREPARING_TARGET');
    expect(await stateOf(id)).toBe('PREPARING_TARGET');
    const history = (await findMigration(handle.db, id))!.history.map((h) => h.state);
    expect(history).toEqual(['REQUESTED', 'READY', 'PREPARING_TARGET']);
  });

  it('refuses a transition the table does not allow, loudly, and leaves the state as it was', async () => {
    const id = await newMigration('cold');
    await recordMigrationState(handle.db, id, 'READY');
    const skip = recordMigrationState(handle.db, id, 'COMPLETED');
    await expect(skip).rejects.toBeInstanceOf(IllegalMigrationTransition);
    await expect(skip).rejects.toThrow(/READY -> COMPLETED is not an allowed transition/);
    // A cold move has no live step, and a rolled-back one goes nowhere.
    await expect(recordMigrationState(handle.db, id, 'LIVE_MIGRATING')).rejects.toThrow(
      /READY -> LIVE_MIGRATING/,
    );
    expect(await stateOf(id)).toBe('READY');
    expect((await findMigration(handle.db, id))!.history.map((h) => h.state)).toEqual(['REQUESTED', 'READY']);
    await recordMigrationState(handle.db, id, 'ROLLING_BACK');
    await recordMigrationState(handle.db, id, 'ROLLED_BACK');
    await expect(recordMigrationState(handle.db, id, 'READY')).rejects.toThrow(/ROLLED_BACK -> READY/);
  });

  it('lets one of two concurrent writers of the same step win and the other repeat it', async () => {
    const id = await newMigration('live');
    const both = await Promise.allSettled([
      recordMigrationState(handle.db, id, 'READY'),
      recordMigrationState(handle.db, id, 'READY'),
    ]);
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await stateOf(id)).toBe('READY');
    expect((await findMigration(handle.db, id))!.history.map((h) => h.state)).toEqual(['REQUESTED', 'READY']);
  });

  it('refuses a state for a migration that does not exist', async () => {
    await expect(recordMigrationState(handle.db, randomUUID(), 'READY')).rejects.toThrow(/no such migration/);
  });
});

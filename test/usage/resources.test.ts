import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHour, rebuildHour } from '../../services/usage/close-hours.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { at, minutesInto, newInstance, pastHour, storedOf } from './history.js';

/**
 * Volumes, addresses, backups and snapshots in the usage history (docs/usage.md "Metrics"): each
 * table's trigger writes what they are billed for, whatever changes them.
 */
let t: Stack;
let poolId: string;
beforeAll(async () => {
  t = await startStack();
  poolId = (await seed.uniqueIpv4Pool(t.db, t.locationId)).id;
});
afterAll(() => t.close());

describe('what an instance has, hour by hour', () => {
  it('counts a volume by its size, an address while held, a backup and a snapshot while they hold space', async () => {
    const H = pastHour();
    const pool = await t.db
      .selectFrom('ip_pools')
      .select('cidr')
      .where('id', '=', poolId)
      .executeTakeFirstOrThrow();
    const instance = await at(t.db, minutesInto(H, -10), (trx) =>
      newInstance(trx, t.client.id, t.locationId, null),
    );
    const volumeId = randomUUID();
    const backupId = randomUUID();
    const snapshotId = randomUUID();
    const address = await at(t.db, minutesInto(H, -10), async (trx) => {
      await trx
        .insertInto('volumes')
        .values({
          id: volumeId,
          user_id: t.client.id,
          location_id: t.locationId,
          name: 'data',
          backend: 'local',
          size_mb: 10240,
          hypervisor_id: null,
          provisioned_mb: null,
          instance_id: null,
          state: 'available',
        })
        .execute();
      await trx
        .insertInto('instance_backups')
        .values({
          id: backupId,
          instance_id: instance.id,
          user_id: t.client.id,
          name: 'b',
          state: 'creating',
          size_mb: null,
          checksum: null,
          policy_id: null,
          error: null,
        })
        .execute();
      await trx
        .insertInto('instance_snapshots')
        .values({
          id: snapshotId,
          instance_id: instance.id,
          user_id: t.client.id,
          name: 's',
          state: 'available',
          size_mb: 2048,
          checksum: null,
          error: null,
        })
        .execute();
      return trx
        .insertInto('ip_addresses')
        .values({
          pool_id: poolId,
          address: pool.cidr.replace('.0/24', '.77'),
          user_id: t.client.id,
          instance_id: instance.id,
          rdns: null,
          rdns_status: null,
          rdns_failure: null,
          rdns_http_status: null,
          rdns_checked_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    });
    // The backup is written at 15 minutes in; the volume grows at 30; the address goes at 45; the
    // snapshot is deleted at 30.
    await at(t.db, minutesInto(H, 15), (trx) =>
      trx
        .updateTable('instance_backups')
        .set({ state: 'available', size_mb: 4096 })
        .where('id', '=', backupId)
        .execute(),
    );
    await at(t.db, minutesInto(H, 30), async (trx) => {
      await trx.updateTable('volumes').set({ size_mb: 20480 }).where('id', '=', volumeId).execute();
      await trx
        .updateTable('instance_snapshots')
        .set({ state: 'deleted', deleted_at: minutesInto(H, 30) })
        .where('id', '=', snapshotId)
        .execute();
    });
    await at(t.db, minutesInto(H, 45), (trx) =>
      trx.deleteFrom('ip_addresses').where('id', '=', address.id).execute(),
    );

    const ids = [volumeId, address.id, backupId, snapshotId];
    const rebuilt = (await rebuildHour(t.db, H)).filter((r) => ids.includes(r.resourceId));
    await closeHour(t.deps, H);
    const expected = {
      [`${volumeId} volume.storage null`]: '15.000000',
      [`${address.id} ip_address.held null`]: '0.750000',
      [`${backupId} backup.storage null`]: '3.000000',
      [`${snapshotId} snapshot.storage null`]: '1.000000',
    };
    expect(await storedOf(t.db, H, ids)).toEqual(expected);
    expect(
      Object.fromEntries(rebuilt.map((r) => [`${r.resourceId} ${r.metric} ${r.planCode}`, r.quantity])),
    ).toEqual(expected);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import {
  findBackupOfInstance,
  insertBackup,
  listBackupsOfInstance,
  moveBackup,
  setBackupProtected,
  takeBackupFor,
} from '../../db/repositories/storage/backups.js';
import {
  findSnapshotOfInstance,
  insertSnapshot,
  listSnapshotsOfInstance,
  moveSnapshot,
  takeSnapshotFor,
} from '../../db/repositories/storage/snapshots.js';
import { seed } from '../support/seed.js';

/**
 * The row queries the backup and snapshot repositories share (db/repositories/storage/artifact-rows.ts),
 * through each repository's own functions: what a customer's action reads and takes.
 */

let handle: DatabaseHandle;
let on: { instanceId: string; userId: string };
let other: { instanceId: string; userId: string };

beforeAll(async () => {
  handle = createDatabase({ url: inject('databaseUrl'), poolSize: 4, namedStatements: false });
  const { db } = handle;
  const [user, location] = [await seed.user(db), await seed.location(db)];
  const instance = await seed.instance(db, { userId: user.id, locationId: location.id });
  const another = await seed.instance(db, { userId: user.id, locationId: location.id, name: 'web-2' });
  on = { instanceId: instance.id, userId: user.id };
  other = { instanceId: another.id, userId: user.id };
});
afterAll(() => handle.close());

const newBackup = (name = 'b') => insertBackup(handle.db, { id: randomUUID(), ...on, name, policyId: null });
const newSnapshot = (name = 's') => insertSnapshot(handle.db, { id: randomUUID(), ...on, name });
const available = { from: ['creating'] as const, to: 'available' as const, sizeMb: 10, checksum: 'c' };

describe('backups and snapshots read', () => {
  it('are made creating, with the columns their repository names', async () => {
    const backup = await newBackup();
    expect(Object.keys(backup).sort()).toEqual(
      [
        'id',
        'instance_id',
        'name',
        'state',
        'size_mb',
        'checksum',
        'protected',
        'policy_id',
        'error',
        'created_at',
        'completed_at',
        'verified_at',
      ].sort(),
    );
    expect(backup).toMatchObject({ state: 'creating', protected: false, policy_id: null });
    const snapshot = await newSnapshot();
    expect(Object.keys(snapshot).sort()).toEqual(
      [
        'id',
        'instance_id',
        'name',
        'state',
        'size_mb',
        'checksum',
        'error',
        'created_at',
        'completed_at',
      ].sort(),
    );
    expect(snapshot.state).toBe('creating');
  });

  it('are found only on their own instance, and not once deleted', async () => {
    const { db } = handle;
    const backup = await newBackup();
    const snapshot = await newSnapshot();
    expect(await findBackupOfInstance(db, on.instanceId, backup.id)).toEqual(backup);
    expect(await findSnapshotOfInstance(db, on.instanceId, snapshot.id)).toEqual(snapshot);
    expect(await findBackupOfInstance(db, other.instanceId, backup.id)).toBeUndefined();
    expect(await findSnapshotOfInstance(db, other.instanceId, snapshot.id)).toBeUndefined();
    expect(await moveBackup(db, { backupId: backup.id, from: ['creating'], to: 'deleted' })).toBe(true);
    expect(await moveSnapshot(db, { snapshotId: snapshot.id, from: ['creating'], to: 'deleted' })).toBe(true);
    expect(await findBackupOfInstance(db, on.instanceId, backup.id)).toBeUndefined();
    expect(await findSnapshotOfInstance(db, on.instanceId, snapshot.id)).toBeUndefined();
  });

  it('are listed newest first, a page at a time, deleted ones and other instances’ left out', async () => {
    const { db } = handle;
    const location = await seed.location(db);
    const instance = await seed.instance(db, { userId: on.userId, locationId: location.id });
    const lister = { instanceId: instance.id, userId: on.userId };
    const backups = [];
    const snapshots = [];
    for (const name of ['1', '2', '3']) {
      backups.push(await insertBackup(db, { id: randomUUID(), ...lister, name, policyId: null }));
      snapshots.push(await insertSnapshot(db, { id: randomUUID(), ...lister, name }));
    }
    await moveBackup(db, { backupId: backups[1]!.id, from: ['creating'], to: 'deleted' });
    await moveSnapshot(db, { snapshotId: snapshots[1]!.id, from: ['creating'], to: 'deleted' });

    const firstBackups = await listBackupsOfInstance(db, lister.instanceId, { page: 1, perPage: 1 });
    const restBackups = await listBackupsOfInstance(db, lister.instanceId, { page: 2, perPage: 1 });
    expect(firstBackups.total).toBe(2);
    expect([...firstBackups.rows, ...restBackups.rows].map((b) => b.name)).toEqual(['3', '1']);
    const allSnapshots = await listSnapshotsOfInstance(db, lister.instanceId, { page: 1, perPage: 25 });
    expect(allSnapshots).toEqual({ rows: [snapshots[2], snapshots[0]], total: 2 });
  });
});

describe('a customer’s action takes a backup or snapshot', () => {
  it('from the state the caller read, once: a second take, or a stale state, takes nothing', async () => {
    const { db } = handle;
    const snapshot = await newSnapshot();
    await moveSnapshot(db, { snapshotId: snapshot.id, ...available });
    const read = (await findSnapshotOfInstance(db, on.instanceId, snapshot.id))!;
    expect(await takeSnapshotFor(db, read, 'restore')).toBe(true);
    expect(await takeSnapshotFor(db, read, 'restore')).toBe(false);
    expect((await findSnapshotOfInstance(db, on.instanceId, snapshot.id))!.state).toBe('restoring');
    // A state the action does not start from is refused before the database is asked.
    expect(await takeSnapshotFor(db, { ...read, state: 'creating' }, 'delete')).toBe(false);

    const backup = await newBackup();
    expect(await takeBackupFor(db, backup, 'verify')).toBe(false);
    await moveBackup(db, { backupId: backup.id, ...available });
    expect(await takeBackupFor(db, { ...backup, state: 'available' }, 'verify')).toBe(true);
    expect(await takeBackupFor(db, { ...backup, state: 'available' }, 'verify')).toBe(false);
    expect((await findBackupOfInstance(db, on.instanceId, backup.id))!.state).toBe('verifying');
  });

  it('two at once: exactly one takes it', async () => {
    const { db } = handle;
    const backup = await newBackup();
    const snapshot = await newSnapshot();
    await moveBackup(db, { backupId: backup.id, ...available });
    await moveSnapshot(db, { snapshotId: snapshot.id, ...available });
    const backupTakes = await Promise.all([
      takeBackupFor(db, { ...backup, state: 'available' }, 'delete'),
      takeBackupFor(db, { ...backup, state: 'available' }, 'restore'),
    ]);
    const snapshotTakes = await Promise.all([
      takeSnapshotFor(db, { ...snapshot, state: 'available' }, 'delete'),
      takeSnapshotFor(db, { ...snapshot, state: 'available' }, 'delete'),
    ]);
    expect(backupTakes.filter(Boolean)).toHaveLength(1);
    expect(snapshotTakes.filter(Boolean)).toHaveLength(1);
  });

  it('a delete leaves a protected backup, and one an instance is still being provisioned from', async () => {
    const { db } = handle;
    const backup = await newBackup();
    await moveBackup(db, { backupId: backup.id, ...available });
    const read = { ...backup, state: 'available' as const };

    await setBackupProtected(db, on.instanceId, backup.id, true);
    expect(await takeBackupFor(db, read, 'delete')).toBe(false);
    await setBackupProtected(db, on.instanceId, backup.id, false);

    const location = await seed.location(db);
    const copy = await seed.instance(db, {
      userId: on.userId,
      locationId: location.id,
      status: 'provisioning',
    });
    await db
      .updateTable('instances')
      .set({ source_backup_id: backup.id })
      .where('id', '=', copy.id)
      .execute();
    expect(await takeBackupFor(db, read, 'delete')).toBe(false);
    // Another action than a delete may read it meanwhile.
    expect(await takeBackupFor(db, read, 'restore_new')).toBe(true);

    await db.updateTable('instances').set({ status: 'running' }).where('id', '=', copy.id).execute();
    expect(await takeBackupFor(db, read, 'delete')).toBe(true);
    expect((await findBackupOfInstance(db, on.instanceId, backup.id))!.state).toBe('deleting');
  });
});

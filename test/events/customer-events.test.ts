import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endConsoleSessions } from '../../db/repositories/instances/console-endings.js';
import { setInstanceSize } from '../../db/repositories/instances/instance-size-reports.js';
import { failArtifactsInCreation, moveArtifact } from '../../db/repositories/storage/artifacts.js';
import { insertBackup } from '../../db/repositories/storage/backups.js';
import { moveVolume } from '../../db/repositories/storage/volumes.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { atOnce, eventsOf, expectNoSecret, rendered, rolledBack, typesOf } from '../support/outbox.js';
import { seed } from '../support/seed.js';

/**
 * docs/events.md: the events of what a customer keeps (backups, snapshots, an instance's size,
 * volumes, console sessions), recorded by the Client API's own paths and the runs they start,
 * with the owner's id, each rendered as the Client API shows the resource.
 */
let t: BackupStack;
const PLAN_MB = 20_480;
beforeAll(async () => {
  t = await startBackupStack({
    CONSOLE_GATEWAY_URL: 'http://127.0.0.1:9/console',
    VOLUME_MAX_SIZE_MB: '8192',
    MAX_VOLUMES_PER_USER: '40',
  });
});
afterAll(() => t.close());

/** Every event of the resource is the customer's, in `stream`, and carries no secret. */
async function customerEvents(resourceId: string, stream: string) {
  const events = await eventsOf(t.env.db, resourceId);
  for (const event of events) {
    expect(event.user_id).toBe(t.env.client.id);
    expect(event.stream_id).toBe(stream);
    expectNoSecret(event);
  }
  return events;
}

describe('backup and snapshot events', () => {
  it('records backup.available once per backup, as the Client API lists it; a verify ending available again is no news; twice on one instance', async () => {
    const { id } = await t.instance();
    const first = await t.backup(id);
    const second = await t.backup(id);
    expect((await t.api('POST', `/${id}/backups/${first.uuid}/verify`)).status).toBe(202);
    await t.listed(`/${id}/backups`, first.uuid, (b) => b.verified_at !== null, 'the verify');
    await t.settled(id);
    for (const made of [first, second]) {
      const events = await customerEvents(made.uuid, id);
      expect(events.map((e) => e.type)).toEqual(['backup.available']);
      const body = rendered(events[0]!);
      expect(body.data.object.attributes).toEqual(made);
      expect(body.data.previous_attributes).toEqual({ state: 'creating' });
    }
  });

  it('records backup.failed with the customer’s words for the failure; snapshot.available for a snapshot', async () => {
    const { id, agent } = await t.instance();
    agent.armFault('backup.create', { mode: 'fail-permanently', times: 1 });
    const failed = (await t.api('POST', `/${id}/backups`, {})).body.attributes;
    const shown = await t.listed(`/${id}/backups`, failed.uuid, (b) => b.state === 'failed', 'the failure');
    await t.settled(id);
    const [event] = await customerEvents(failed.uuid, id);
    expect(event?.type).toBe('backup.failed');
    expect(rendered(event!).data.object.attributes).toEqual(shown);

    const taken = (await t.api('POST', `/${id}/snapshots`, {})).body.attributes;
    const snapshot = await t.listed(
      `/${id}/snapshots`,
      taken.uuid,
      (s) => s.state === 'available',
      'snapshot',
    );
    await t.settled(id);
    const snapshotEvents = await customerEvents(taken.uuid, id);
    expect(snapshotEvents.map((e) => e.type)).toEqual(['snapshot.available']);
    expect(rendered(snapshotEvents[0]!).data.object.attributes).toEqual(snapshot);
  });

  it('records nothing for a settle that rolled back, and one event when the run and the reconciler settle at once', async () => {
    const { id } = await t.instance();
    const backup = await insertBackup(t.env.db, {
      id: randomUUID(),
      instanceId: id,
      userId: t.env.client.id,
      name: 'settled twice',
      policyId: null,
    });
    const available = { from: ['creating'] as const, to: 'available' as const, sizeMb: 10, checksum: 'abc' };
    await rolledBack(t.env.db, (trx) => moveArtifact(trx, 'backup', backup.id, available));
    expect(await typesOf(t.env.db, backup.id)).toEqual([]);
    // The run's settle holds the row; the reconciler's failing of what is still `creating` waits,
    // then finds it written: only backup.available.
    await atOnce(
      t.env.db,
      (trx) => moveArtifact(trx, 'backup', backup.id, available),
      () => failArtifactsInCreation(t.env.db, 'backup', id, { code: 'X', message: 'y' }),
    );
    expect(await typesOf(t.env.db, backup.id)).toEqual(['backup.available']);
  });
});

describe('instance.resized', () => {
  const setPlanDisk = async (disk_mb: number) =>
    expect(
      (await t.env.admin.call('PATCH', `/api/application/cloudsvc/plans/${t.catalog.plan.id}`, { disk_mb }))
        .status,
    ).toBe(200);

  it('records each grow of the root disk with the size it replaced, as the Client API shows the instance', async () => {
    const { id } = await t.instance();
    await setPlanDisk(PLAN_MB + 4096);
    try {
      for (const size of [PLAN_MB + 2048, PLAN_MB + 4096]) {
        const res = await t.api('POST', `/${id}/storage/root/resize`, { size_mb: size });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        await t.settled(id, 'running');
      }
    } finally {
      await setPlanDisk(PLAN_MB);
    }
    const events = (await customerEvents(id, id)).filter((e) => e.type === 'instance.resized');
    expect(events.map((e) => e.data.previous)).toEqual([{ disk_mb: PLAN_MB }, { disk_mb: PLAN_MB + 2048 }]);
    const latest = rendered(events[1]!).data.object.attributes;
    const shown = (await t.api('GET', `/${id}`)).body.attributes;
    expect(latest).toMatchObject({ uuid: id, status: shown.status });
    expect(JSON.stringify(latest)).toContain(String(PLAN_MB + 4096));
  });

  it('records nothing for a size that rolled back or did not change; two at once in commit order', async () => {
    const { id } = await t.instance();
    const before = await t.env.db
      .selectFrom('instances')
      .select(['cpu_cores', 'memory_mb', 'disk_mb'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const sized = (cpu: number) => ({
      size: { ...before, cpu_cores: cpu },
      planId: null,
      ceiling: undefined,
    });
    await rolledBack(t.env.db, (trx) => setInstanceSize(trx, id, sized(before.cpu_cores + 1)));
    await setInstanceSize(t.env.db, id, sized(before.cpu_cores));
    const resized = async () =>
      (await eventsOf(t.env.db, id)).filter((e) => e.type === 'instance.resized').map((e) => e.data.previous);
    expect(await resized()).toEqual([]);
    await atOnce(
      t.env.db,
      (trx) => setInstanceSize(trx, id, sized(before.cpu_cores + 1)),
      () => setInstanceSize(t.env.db, id, sized(before.cpu_cores + 2)),
    );
    expect(await resized()).toEqual([{ cpu_cores: before.cpu_cores }, { cpu_cores: before.cpu_cores + 1 }]);
  });
});

describe('volume events', () => {
  const show = async (volumeId: string): Promise<Body> =>
    (await t.api('GET', `/volumes/${volumeId}`)).body.attributes;
  const settledVolume = (volumeId: string, state: string) =>
    eventually(
      async () => ((await show(volumeId))?.state === state ? show(volumeId) : undefined),
      20_000,
      `volume ${state}`,
    );
  async function created(): Promise<Body> {
    const res = await t.api('POST', '/volumes', {
      name: `data-${randomUUID().slice(0, 8)}`,
      location: t.location.code,
      size_mb: 2048,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.attributes;
  }

  it('records created, attached and detached (twice), then deleted, in the volume’s own stream', async () => {
    const { id } = await t.instance();
    const volume = await created();
    const shownAs: Body[] = [volume];
    for (let round = 0; round < 2; round++) {
      expect((await t.api('POST', `/volumes/${volume.uuid}/attach`, { instance: id })).status).toBe(202);
      await t.settled(id);
      shownAs.push(await settledVolume(volume.uuid, 'attached'));
      expect((await t.api('POST', `/volumes/${volume.uuid}/detach`)).status).toBe(202);
      await t.settled(id);
      shownAs.push(await settledVolume(volume.uuid, 'available'));
    }
    expect((await t.api('DELETE', `/volumes/${volume.uuid}`)).status).toBe(202);
    await eventually(
      async () => (await t.api('GET', `/volumes/${volume.uuid}`)).status === 404,
      20_000,
      'gone',
    );

    const events = await customerEvents(volume.uuid, volume.uuid);
    expect(events.map((e) => e.type)).toEqual([
      'volume.created',
      'volume.attached',
      'volume.detached',
      'volume.attached',
      'volume.detached',
      'volume.deleted',
    ]);
    const bodies = events.map(rendered);
    // Each as the Client API showed the volume once the change was done.
    expect(bodies.slice(0, 5).map((b) => b.data.object.attributes)).toEqual(shownAs);
    expect(bodies[1]!.data.previous_attributes).toEqual({ state: 'attaching' });
    expect(bodies[2]!.data.previous_attributes).toEqual({ state: 'detaching' });
    expect(bodies[5]!.data.object.attributes).toMatchObject({ uuid: volume.uuid, state: 'deleting' });
  });

  it('of two attaches at once records the one accepted; a move that rolled back records nothing; two moves at once in commit order', async () => {
    const { id } = await t.instance();
    const volume = await created();
    const answers = await Promise.all(
      [1, 2].map(() => t.api('POST', `/volumes/${volume.uuid}/attach`, { instance: id })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    await t.settled(id);
    await settledVolume(volume.uuid, 'attached');
    expect(await typesOf(t.env.db, volume.uuid)).toEqual(['volume.created', 'volume.attached']);

    const other = await created();
    await moveVolume(t.env.db, other.uuid, { from: ['available'], to: 'attaching', instanceId: id });
    await rolledBack(t.env.db, (trx) => moveVolume(trx, other.uuid, { from: ['attaching'], to: 'attached' }));
    expect(await typesOf(t.env.db, other.uuid)).toEqual(['volume.created']);
    await atOnce(
      t.env.db,
      (trx) => moveVolume(trx, other.uuid, { from: ['attaching'], to: 'attached' }),
      () =>
        moveVolume(t.env.db, other.uuid, {
          from: ['attaching', 'attached'],
          to: 'available',
          instanceId: null,
        }),
    );
    expect(await typesOf(t.env.db, other.uuid)).toEqual([
      'volume.created',
      'volume.attached',
      'volume.detached',
    ]);
  });
});

describe('console.session_ended', () => {
  beforeAll(async () => {
    const gateway = await seed.gatewayCredential(t.env.db);
    await t.env.call(gateway, 'POST', '/api/application/cloudsvc/console/internal/heartbeat', {
      relay_url: 'ws://127.0.0.1:9/relay',
    });
  });
  const open = async (instanceId: string): Promise<Body> => {
    const res = await t.api('POST', `/${instanceId}/console/session`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.attributes;
  };

  it('records one event per session however often it is revoked, in the instance’s stream, without its token', async () => {
    const { id } = await t.instance();
    const sessions = [await open(id), await open(id)];
    for (const session of sessions) {
      const revoke = () => t.api('POST', `/${id}/console/sessions/${session.uuid}/revoke`);
      // Twice at once, then again: the session ends once.
      await Promise.all([revoke(), revoke()]);
      const last = await revoke();
      expect(last.status).toBe(200);
      const events = await customerEvents(session.uuid, id);
      expect(events.map((e) => e.type)).toEqual(['console.session_ended']);
      const body = rendered(events[0]!);
      expect(body.data.object.attributes).toMatchObject({
        uuid: session.uuid,
        state: 'ended',
        end_reason: 'revoked',
      });
      expect(body.data.previous_attributes).toEqual({ state: 'pending' });
      // As the Client API showed it, ended.
      expect(body.data.object.attributes).toEqual(last.body.attributes);
      expect(JSON.stringify(events[0]!.data)).not.toContain(session.connect_token);
    }
  });

  it('records nothing for an ending that rolled back', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    await rolledBack(t.env.db, (trx) =>
      endConsoleSessions(trx, 'revoked', (eb) => eb('id', '=', session.uuid)),
    );
    expect(await typesOf(t.env.db, session.uuid)).toEqual([]);
  });
});

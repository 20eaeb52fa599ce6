import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * Floating IPs: given to a customer through the Application API, attached, moved between their
 * instances (across hypervisors), detached, through the Client API and real (in-process) agents;
 * after each change every hypervisor holds what the panel says.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.env.call(t.env.admin, method, `/api/application/cloudsvc${path}`, body);

async function floatingIp(userId = t.env.client.id): Promise<Body> {
  const res = await admin('POST', '/floating-ips', { user: userId, location: t.location.code });
  expect(res.status).toBe(201);
  expect(res.body.attributes).toMatchObject({ status: 'idle', instance: null, user: userId });
  return res.body.attributes;
}

const shown = async (uuid: string): Promise<Body> =>
  (await t.api('GET', '/floating-ips?per_page=100')).body.data.find((f: Body) => f.attributes.uuid === uuid)
    .attributes;

/** Whether the instance's hypervisor has the address, and as floating. */
const onHost = (instanceId: string, address: string) =>
  (t.hostOf(instanceId).hypervisor().instances[instanceId]!.network?.addresses ?? []).some(
    (a) => a.address === address && a.floating,
  );

async function act(uuid: string, action: string, instance?: string, status = 202): Promise<Body> {
  const res = await t.api('POST', `/floating-ips/${uuid}/${action}`, instance ? { instance } : undefined);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.attributes;
}

describe('floating IPs', () => {
  it('attach, attach again, move across instances, move again, detach, detach again', async () => {
    const a = await t.instance();
    const b = await t.instance();
    const ip = await floatingIp();
    expect(await shown(ip.uuid)).toMatchObject({
      status: 'idle',
      address: ip.address,
      location: t.location.code,
    });

    expect(await act(ip.uuid, 'attach', a.id)).toMatchObject({ status: 'attaching', instance: a.id });
    await t.settled(a.id);
    expect(await shown(ip.uuid)).toMatchObject({ status: 'attached', instance: a.id });
    expect(onHost(a.id, ip.address)).toBe(true);
    const listed = (await t.api('GET', `/${a.id}/network/ips`)).body.data.map((x: Body) => x.attributes);
    expect(listed.find((x: Body) => x.uuid === ip.uuid)).toMatchObject({ kind: 'floating', primary: false });
    await act(ip.uuid, 'attach', a.id, 200);

    expect(await act(ip.uuid, 'move', b.id)).toMatchObject({ status: 'attaching', instance: b.id });
    await t.settled(b.id);
    expect(await shown(ip.uuid)).toMatchObject({ status: 'attached', instance: b.id });
    expect(onHost(b.id, ip.address)).toBe(true);
    expect(onHost(a.id, ip.address)).toBe(false);
    expect(await t.latestTask(b.id)).toMatchObject({ operation: 'floating_ip_move', state: 'succeeded' });
    const log = (await t.api('GET', `/${b.id}/activity?per_page=5`)).body.data.map((e: Body) => e.attributes);
    expect(log.map((e: Body) => e.event)).toContain('instance.floating_ip_move.completed');
    const moved = await t.env.db
      .selectFrom('instance_operations')
      .select('outcome')
      .where('instance_id', '=', b.id)
      .where('kind', '=', 'floating_ip_move')
      .executeTakeFirstOrThrow();
    expect((moved.outcome as { interruption_ms: number }).interruption_ms).toBeGreaterThanOrEqual(0);
    await act(ip.uuid, 'move', b.id, 200);

    expect(await act(ip.uuid, 'detach')).toMatchObject({ status: 'detaching' });
    await t.settled(b.id);
    expect(await shown(ip.uuid)).toMatchObject({ status: 'idle', instance: null });
    expect(onHost(b.id, ip.address)).toBe(false);
    await act(ip.uuid, 'detach', undefined, 200);
  });

  it('the instance cannot detach it as an address; the provider cannot take it back while it is on one', async () => {
    const a = await t.instance();
    const ip = await floatingIp();
    await act(ip.uuid, 'attach', a.id);
    await t.settled(a.id);
    const refused = await t.api('DELETE', `/${a.id}/network/ips/${ip.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-CONFLICT-409');
    expect((await admin('DELETE', `/floating-ips/${ip.uuid}`)).status).toBe(409);
    await act(ip.uuid, 'move', a.id, 200);
    await act(ip.uuid, 'attach', (await t.instance()).id, 409);

    // Deleting the instance it is on leaves it idle, the customer's still.
    expect((await t.api('DELETE', `/${a.id}`)).status).toBe(202);
    await eventually(
      async () => (await shown(ip.uuid)).status === 'idle',
      20_000,
      'the floating IP to be idle',
    );
    expect((await admin('DELETE', `/floating-ips/${ip.uuid}`)).status).toBe(204);
    expect((await admin('DELETE', `/floating-ips/${ip.uuid}`)).status).toBe(404);
    expect(await shown(ip.uuid).catch(() => undefined)).toBeUndefined();
  });

  it('a move the new hypervisor fails puts it back on the old instance', async () => {
    const a = await t.instance();
    const b = await t.instance();
    const ip = await floatingIp();
    await act(ip.uuid, 'attach', a.id);
    await t.settled(a.id);
    t.hostOf(b.id).armFault('network.apply', { mode: 'fail-permanently' });
    await act(ip.uuid, 'move', b.id);
    await t.settled(b.id);
    await eventually(async () => (await shown(ip.uuid)).status === 'attached', 10_000, 'the move to end');
    expect(await shown(ip.uuid)).toMatchObject({ instance: a.id });
    await eventually(() => onHost(a.id, ip.address), 10_000, 'the old instance to have it again');
    expect(onHost(b.id, ip.address)).toBe(false);
    expect(await t.latestTask(b.id)).toMatchObject({ operation: 'floating_ip_move', state: 'failed' });
  });

  it('two attaches at once to two instances: one wins', async () => {
    const a = await t.instance();
    const b = await t.instance();
    const ip = await floatingIp();
    const answers = await Promise.all([
      t.api('POST', `/floating-ips/${ip.uuid}/attach`, { instance: a.id }),
      t.api('POST', `/floating-ips/${ip.uuid}/attach`, { instance: b.id }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(a.id);
    await t.settled(b.id);
    const on = (await shown(ip.uuid)).instance;
    expect([a.id, b.id]).toContain(on);
    expect(onHost(on, ip.address)).toBe(true);
    expect(onHost(on === a.id ? b.id : a.id, ip.address)).toBe(false);
  });

  it('two given at once get two addresses; a move off an instance being migrated is refused', async () => {
    const given = await Promise.all([
      admin('POST', '/floating-ips', { user: t.env.client.id, location: t.location.code }),
      admin('POST', '/floating-ips', { user: t.env.client.id, location: t.location.code }),
    ]);
    expect(given.map((r) => r.status)).toEqual([201, 201]);
    expect(given[0]!.body.attributes.address).not.toBe(given[1]!.body.attributes.address);

    const a = await t.instance();
    const b = await t.instance();
    const ip = given[0]!.body.attributes;
    await act(ip.uuid, 'attach', a.id);
    await t.settled(a.id);
    const status = (value: string) =>
      t.env.db
        .updateTable('instances')
        .set({ status: value as 'running' })
        .where('id', '=', a.id)
        .execute();
    await status('migrating');
    try {
      const refused = await t.api('POST', `/floating-ips/${ip.uuid}/move`, { instance: b.id });
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('INSTANCE_MIGRATING');
    } finally {
      await status('running');
    }
    expect(await shown(ip.uuid)).toMatchObject({ status: 'attached', instance: a.id });
    expect((await t.api('GET', `/${b.id}/tasks`)).body.data[0].attributes.operation).toBe('provision');
  });

  it('another customer’s floating IP or instance, another location, and bad input answer the standard errors', async () => {
    const a = await t.instance();
    const stranger = t.env.stranger;
    const theirs = await floatingIp(stranger.id);
    const mine = await floatingIp();
    await act(theirs.uuid, 'attach', a.id, 404);
    const strangerCall = (path: string, body?: unknown) =>
      t.env.call(stranger, 'POST', `/api/client/cloud${path}`, body);
    expect((await strangerCall(`/floating-ips/${theirs.uuid}/attach`, { instance: a.id })).status).toBe(404);
    expect((await strangerCall(`/floating-ips/${mine.uuid}/detach`)).status).toBe(404);
    await act(randomUUID(), 'detach', undefined, 404);
    expect((await t.api('POST', `/floating-ips/${mine.uuid}/attach`, {})).status).toBe(400);
    expect((await t.api('POST', `/floating-ips/${mine.uuid}/attach`, { instance: 'nope' })).status).toBe(400);

    const elsewhere = await seed.location(t.env.db);
    await seed.uniqueIpv4Pool(t.env.db, elsewhere.id);
    const far = await admin('POST', '/floating-ips', { user: t.env.client.id, location: elsewhere.code });
    expect(far.status).toBe(201);
    const refused = await t.api('POST', `/floating-ips/${far.body.attributes.uuid}/attach`, {
      instance: a.id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toBe(
      'The floating IP belongs to another location than the instance.',
    );

    for (const body of [{ user: t.env.client.id }, { user: randomUUID(), location: t.location.code }, {}])
      expect((await admin('POST', '/floating-ips', body)).status, JSON.stringify(body)).toBe(400);
    expect((await t.env.call(t.env.client, 'GET', '/api/application/cloudsvc/floating-ips')).status).toBe(
      403,
    );
    const all = (await admin('GET', `/floating-ips?user=${stranger.id}`)).body.data;
    expect(all.map((f: Body) => f.attributes.uuid)).toEqual([theirs.uuid]);
    expect((await shown(theirs.uuid).catch(() => undefined)) ?? null).toBeNull();
    expect(await shown(mine.uuid)).toMatchObject({ status: 'idle' });
  });
});

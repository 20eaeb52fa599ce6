import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { imageRemovalWorkflowId } from '../../domain/workflow-ids.js';
import { acceptHeartbeat } from '../../services/agents/heartbeat.js';
import { removeOwedImageCopies, retryStaleImageRemovals } from '../../services/images/removals.js';
import type { InProcessAgent } from '../support/agents/in-process.js';
import { serveDisk } from '../support/disk-server.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A deleted image version's copies leave the hypervisors: each one that holds a copy runs
 * `image.delete` (the simulated driver removes it from its store, a folder of its state directory),
 * one away does when it comes back, and a guest there still made from the version blocks it until
 * it is gone. The disk is fetched for real from a server of the test's own on loopback.
 */
const DISK = randomBytes(256 * 1024 + 5);
const SHA256 = createHash('sha256').update(DISK).digest('hex');
let t: Stack;
let server: Awaited<ReturnType<typeof serveDisk>>;
let base: string;
beforeAll(async () => {
  server = await serveDisk(DISK);
  base = server.base;
  t = await startStack({
    agents: true,
    config: {
      ISO_ALLOW_HTTP: 'true',
      ISO_ALLOWED_NETWORKS: '127.0.0.0/8',
      IMAGE_MAX_SIZE_MB: '2',
      // An agent's own heartbeats every 200 s: a hypervisor marked unreachable stays so until the test's heartbeat.
      HYPERVISOR_UNREACHABLE_AFTER_MS: '600000',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

/** Hypervisors of a location of the test's own, each heard from once (the next heartbeat is far off). */
async function place(count: number) {
  const location = await seed.location(t.db);
  const hosts: { id: string; agent: InProcessAgent }[] = [];
  for (let i = 0; i < count; i++) {
    const { hypervisor, agent } = await t.hypervisorWithAgent({}, { locationId: location.id });
    await eventually(
      async () => (await findHypervisor(t.db, hypervisor.id))?.free_cpu_cores != null,
      30_000,
      'the first heartbeat',
    );
    hosts.push({ id: hypervisor.id, agent: agent as InProcessAgent });
  }
  return { location, hosts };
}

/** A version of a new image (or of `imageId`), distributed to the location and ready on each of `hosts`. */
async function readyVersion(locationCode: string, hosts: readonly { id: string }[], imageId?: string) {
  const image =
    imageId ??
    (
      await admin('POST', '/images', {
        code: `image-${randomUUID().slice(0, 8)}`,
        name: 'Imported',
        os_family: 'other',
        min_disk_mb: 64,
      })
    ).body.attributes.uuid;
  const added = await admin('POST', `/images/${image}/versions`, {
    url: `${base}/disk.img`,
    checksum_algorithm: 'sha256',
    checksum: SHA256,
    format: 'raw',
    locations: [locationCode],
  });
  expect(added.status).toBe(201);
  const versionId = added.body.attributes.uuid as string;
  await eventually(
    async () => {
      const { body } = await admin('GET', `/image-versions/${versionId}`);
      const copies = body.attributes.hypervisors as Body[];
      return hosts.every((h) => copies.find((c) => c.uuid === h.id)?.state === 'ready');
    },
    30_000,
    `version ${versionId} ready`,
  );
  return versionId;
}

const stored = (agent: InProcessAgent, versionId: string) =>
  existsSync(join(agent.stateDir, 'images', versionId, 'disk.raw'));
const removalsOn = (agent: InProcessAgent, versionId: string) =>
  agent.hypervisor().applied.filter((a) => a.type === 'image.delete' && a.instance_id === versionId);
const removalRun = (versionId: string, hypervisorId: string) =>
  t.temporal.workflow.getHandle(imageRemovalWorkflowId(versionId, hypervisorId)).result();
async function removals(versionId: string) {
  const res = await admin('GET', `/image-versions/${versionId}/removals`);
  expect(res.status).toBe(200);
  return res.body.data as Body[];
}
const removalOf = async (versionId: string, hypervisorId: string) =>
  (await removals(versionId)).find((r) => r.attributes.hypervisor.uuid === hypervisorId)?.attributes;
const heartbeat = (hypervisorId: string) =>
  acceptHeartbeat(
    t.deps,
    { hypervisorId, credentialId: randomUUID() },
    { agentVersion: 'test', capabilities: [], free: { cpuCores: 1, memoryMb: 1024, diskMb: 10_240 } },
  );
const markUnreachable = (hypervisorId: string) =>
  t.db.updateTable('hypervisors').set({ status: 'unreachable' }).where('id', '=', hypervisorId).execute();

describe('a deleted image version', () => {
  it('leaves the store of every hypervisor that held it; deleted again is a 404 and removes nothing more', async () => {
    const { location, hosts } = await place(2);
    const versionId = await readyVersion(location.code, hosts);
    // Never fetched (offline since the version was added): nothing of it to remove there.
    const offline = await seed.hypervisor(t.db, location.id);
    await admin('POST', `/image-versions/${versionId}/distribute`);
    expect((await admin('GET', `/image-versions/${versionId}/removals`)).body.data).toEqual([]);

    expect((await admin('DELETE', `/image-versions/${versionId}`)).status).toBe(204);
    for (const { id, agent } of hosts) {
      expect(await removalRun(versionId, id)).toBe('removed');
      expect(stored(agent, versionId)).toBe(false);
      expect(removalsOn(agent, versionId)).toHaveLength(1);
    }
    const listed = await removals(versionId);
    expect(listed.map((r) => r.attributes.hypervisor.uuid).sort()).toEqual(hosts.map((h) => h.id).sort());
    expect(listed.map((r) => r.attributes.hypervisor.uuid)).not.toContain(offline.id);
    for (const removal of listed)
      expect(removal.attributes).toMatchObject({
        image_version: versionId,
        version: 1,
        state: 'removed',
        error: null,
        attempts: 1,
        hypervisor: { location: location.code },
      });

    expect((await admin('DELETE', `/image-versions/${versionId}`)).status).toBe(404);
    expect((await admin('GET', `/image-versions/${versionId}`)).status).toBe(404);
    // The comeback asks nothing of a removed copy.
    await Promise.all(hosts.map((h) => removeOwedImageCopies(t.deps, h.id)));
    expect((await removals(versionId)).map((r) => r.attributes.attempts)).toEqual([1, 1]);
    for (const { agent } of hosts) expect(removalsOn(agent, versionId)).toHaveLength(1);
  });

  it('goes with its image, and the copies of each of the image’s versions leave the hypervisors', async () => {
    const { location, hosts } = await place(1);
    const [{ id, agent }] = hosts as [{ id: string; agent: InProcessAgent }];
    const first = await readyVersion(location.code, hosts);
    const imageId = (await admin('GET', `/image-versions/${first}`)).body.attributes.image as string;
    const second = await readyVersion(location.code, hosts, imageId);

    expect((await admin('DELETE', `/images/${imageId}`)).status).toBe(204);
    for (const versionId of [first, second]) {
      expect(await removalRun(versionId, id)).toBe('removed');
      expect(stored(agent, versionId)).toBe(false);
      expect(await removalOf(versionId, id)).toMatchObject({ image: imageId, state: 'removed' });
    }
    expect((await removalOf(second, id))?.version).toBe(2);
    expect((await admin('DELETE', `/images/${imageId}`)).status).toBe(404);
  });

  it('deleted twice at once: one delete, each copy removed once', async () => {
    const { location, hosts } = await place(1);
    const versionId = await readyVersion(location.code, hosts);
    const replies = await Promise.all([
      admin('DELETE', `/image-versions/${versionId}`),
      admin('DELETE', `/image-versions/${versionId}`),
    ]);
    expect(statusesOf(replies)).toEqual([204, 404]);
    const [{ id, agent }] = hosts as [{ id: string; agent: InProcessAgent }];
    expect(await removalRun(versionId, id)).toBe('removed');
    expect(stored(agent, versionId)).toBe(false);
    expect(removalsOn(agent, versionId)).toHaveLength(1);
    expect(await removalOf(versionId, id)).toMatchObject({ state: 'removed', attempts: 1 });
  });

  it('on a hypervisor away, is removed when it comes back; comebacks after, and two at once, remove nothing twice', async () => {
    const { location, hosts } = await place(2);
    const [online, away] = hosts as [
      { id: string; agent: InProcessAgent },
      { id: string; agent: InProcessAgent },
    ];
    const versionId = await readyVersion(location.code, hosts);
    await markUnreachable(away.id);

    expect((await admin('DELETE', `/image-versions/${versionId}`)).status).toBe(204);
    expect(await removalRun(versionId, online.id)).toBe('removed');
    expect(await removalRun(versionId, away.id)).toBe('absent');
    expect(stored(online.agent, versionId)).toBe(false);
    expect(stored(away.agent, versionId)).toBe(true);
    expect(await removalOf(versionId, away.id)).toMatchObject({ state: 'pending', attempts: 0 });
    // The sweep asks hypervisors that are online only.
    await t.db
      .updateTable('image_copy_removals')
      .set({ updated_at: sql`now() - interval '1 day'` })
      .where('image_version_id', '=', versionId)
      .execute();
    await retryStaleImageRemovals(t.deps);
    expect(await removalRun(versionId, away.id)).toBe('absent');

    expect((await heartbeat(away.id)).status).toBe('online');
    await eventually(
      async () => (await removalOf(versionId, away.id))?.state === 'removed',
      30_000,
      'the removal on the hypervisor back',
    );
    expect(stored(away.agent, versionId)).toBe(false);

    await markUnreachable(away.id);
    await Promise.all([heartbeat(away.id), heartbeat(away.id)]);
    await Promise.all([removeOwedImageCopies(t.deps, away.id), removeOwedImageCopies(t.deps, away.id)]);
    expect(removalsOn(away.agent, versionId)).toHaveLength(1);
    expect(await removalOf(versionId, away.id)).toMatchObject({ state: 'removed', attempts: 1 });
  });

  it('is blocked on a hypervisor where a guest made from it is left, and removed by the sweep once it is gone', async () => {
    const { location, hosts } = await place(1);
    const [{ id, agent }] = hosts as [{ id: string; agent: InProcessAgent }];
    const versionId = await readyVersion(location.code, hosts);
    // A guest the panel no longer counts (its instance deleted while the hypervisor kept it).
    const guestId = randomUUID();
    await agent.driver.execute('instance.create', simulatedGuest(guestId, versionId), {
      signal: new AbortController().signal,
      progress: () => {},
      redeemTransfer: () => Promise.reject(new Error('no transfer here')),
    });

    expect((await admin('DELETE', `/image-versions/${versionId}`)).status).toBe(204);
    expect(await removalRun(versionId, id)).toBe('failed');
    expect(stored(agent, versionId)).toBe(true);
    const blocked = await removalOf(versionId, id);
    expect(blocked).toMatchObject({ state: 'blocked', error: { code: 'IMAGE_IN_USE' }, removed_at: null });
    expect(blocked?.error.message).toContain(guestId);

    await agent.driver.execute(
      'instance.delete',
      { instance_id: guestId },
      {
        signal: new AbortController().signal,
        progress: () => {},
        redeemTransfer: () => Promise.reject(new Error('no transfer here')),
      },
    );
    // Not yet stale: the sweep leaves it.
    expect(await retryStaleImageRemovals(t.deps)).toBe(0);
    await t.db
      .updateTable('image_copy_removals')
      .set({ updated_at: sql`now() - interval '1 day'` })
      .where('image_version_id', '=', versionId)
      .execute();
    expect(await retryStaleImageRemovals(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await removalRun(versionId, id)).toBe('removed');
    expect(stored(agent, versionId)).toBe(false);
    expect(await removalOf(versionId, id)).toMatchObject({ state: 'removed', error: null, attempts: 2 });
  });

  it('a removal that fails once is retried; one that fails for good is pending with why, and asked again by the sweep', async () => {
    const { location, hosts } = await place(2);
    const [flaky, broken] = hosts as [
      { id: string; agent: InProcessAgent },
      { id: string; agent: InProcessAgent },
    ];
    const versionId = await readyVersion(location.code, hosts);
    flaky.agent.armFault('image.delete', { mode: 'fail' });
    broken.agent.armFault('image.delete', { mode: 'fail-permanently' });

    expect((await admin('DELETE', `/image-versions/${versionId}`)).status).toBe(204);
    expect(await removalRun(versionId, flaky.id)).toBe('removed');
    expect(stored(flaky.agent, versionId)).toBe(false);
    expect(await removalRun(versionId, broken.id)).toBe('failed');
    expect(stored(broken.agent, versionId)).toBe(true);
    expect(await removalOf(versionId, broken.id)).toMatchObject({
      state: 'pending',
      error: { code: 'SIMULATED_FAILURE' },
      attempts: 1,
    });

    await t.db
      .updateTable('image_copy_removals')
      .set({ updated_at: sql`now() - interval '1 day'` })
      .where('image_version_id', '=', versionId)
      .execute();
    // Twice at once: one run asks the hypervisor, the other joins it or finds the copy removed.
    await Promise.all([retryStaleImageRemovals(t.deps), retryStaleImageRemovals(t.deps)]);
    // The newest run of the id: the one that removed it, or one started after it that found it removed.
    expect(['removed', 'absent']).toContain(await removalRun(versionId, broken.id));
    expect(stored(broken.agent, versionId)).toBe(false);
    expect(await removalOf(versionId, broken.id)).toMatchObject({
      state: 'removed',
      error: null,
      attempts: 2,
    });
    expect(removalsOn(broken.agent, versionId)).toHaveLength(1);
    expect(await removalOf(versionId, flaky.id)).toMatchObject({ state: 'removed', attempts: 1 });
  });

  it('refused while an instance uses it removes nothing; an unknown or malformed id is a 404', async () => {
    const { location, hosts } = await place(1);
    const [{ id, agent }] = hosts as [{ id: string; agent: InProcessAgent }];
    const versionId = await readyVersion(location.code, hosts);
    const instance = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: location.id,
      hypervisorId: id,
    });
    await t.db
      .updateTable('instances')
      .set({ image_version_id: versionId })
      .where('id', '=', instance.id)
      .execute();

    const refused = await admin('DELETE', `/image-versions/${versionId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-INUSE-409');
    expect(await removals(versionId)).toEqual([]);
    await Promise.all([removeOwedImageCopies(t.deps, id), retryStaleImageRemovals(t.deps)]);
    expect(stored(agent, versionId)).toBe(true);
    expect(removalsOn(agent, versionId)).toHaveLength(0);
    expect((await admin('GET', `/image-versions/${versionId}`)).body.attributes.hypervisors[0].state).toBe(
      'ready',
    );

    expect((await admin('GET', `/image-versions/${randomUUID()}/removals`)).status).toBe(404);
    // A path id that is not a UUID is an unknown resource (docs/api.md "Errors").
    expect((await admin('GET', '/image-versions/not-a-uuid/removals')).status).toBe(404);
    expect((await admin('DELETE', '/image-versions/not-a-uuid')).status).toBe(404);
  });
});

function simulatedGuest(instanceId: string, image: string) {
  return {
    instance_id: instanceId,
    hostname: 'left-1.example.test',
    timezone: 'UTC',
    root_password: 'correct horse battery staple',
    ssh_keys: [],
    cpu_cores: 1,
    memory_mb: 256,
    disk_mb: 1024,
    image,
    boot_order: ['disk'],
    ipv4: null,
    ipv6: null,
    start: false,
  };
}

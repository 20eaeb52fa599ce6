import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { imageCatchUpWorkflowId, imageDistributionWorkflowId } from '../../domain/workflow-ids.js';
import { acceptHeartbeat } from '../../services/agents/heartbeat.js';
import { fetchLackedImages, fetchOwedImages } from '../../services/images/catch-up.js';
import type { InProcessAgent } from '../support/agents/in-process.js';
import { serveDisk } from '../support/disk-server.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A hypervisor that comes online (enrolled, or back from unreachable) fetches the versions of its
 * location it lacks without anyone asking for a distribution: the simulated driver runs the
 * agent's own fetcher against a server of the test's own on loopback.
 */
const DISK = randomBytes(512 * 1024 + 3);
const SHA256 = createHash('sha256').update(DISK).digest('hex');
let t: Stack;
let server: Awaited<ReturnType<typeof serveDisk>>;
let base: string;
beforeAll(async () => {
  server = await serveDisk(DISK);
  base = server.base;
  t = await startStack({
    agents: true,
    config: { ISO_ALLOW_HTTP: 'true', ISO_ALLOWED_NETWORKS: '127.0.0.0/8', IMAGE_MAX_SIZE_MB: '2' },
  });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

/** A location of the test's own, so no other test's versions are fetched there. */
async function ownLocation() {
  return seed.location(t.db);
}

async function addVersion(locationCode: string, checksum = SHA256) {
  const code = `image-${randomUUID().slice(0, 8)}`;
  const image = await admin('POST', '/images', {
    code,
    name: 'Imported',
    os_family: 'other',
    min_disk_mb: 64,
  });
  const added = await admin('POST', `/images/${image.body.attributes.uuid}/versions`, {
    url: `${base}/disk.img`,
    checksum_algorithm: 'sha256',
    checksum,
    format: 'raw',
    locations: [locationCode],
  });
  expect(added.status).toBe(201);
  return added.body.attributes.uuid as string;
}

const copyOn = async (versionId: string, hypervisorId: string) => {
  const { body } = await admin('GET', `/image-versions/${versionId}`);
  return (body.attributes.hypervisors as Body[]).find((h) => h.uuid === hypervisorId);
};
const readyOn = (versionId: string, hypervisorId: string) =>
  eventually(
    async () => {
      const copy = await copyOn(versionId, hypervisorId);
      return copy?.state === 'ready' ? copy : undefined;
    },
    30_000,
    `version ${versionId} ready on ${hypervisorId}`,
  );
const fetchesOf = (agent: InProcessAgent, versionId: string) =>
  agent.hypervisor().applied.filter((a) => a.type === 'image.fetch' && a.instance_id === versionId);
const stored = (agent: InProcessAgent, versionId: string) =>
  readFileSync(join(agent.stateDir, 'images', versionId, 'disk.raw'));
const catchUpRun = (versionId: string, hypervisorId: string) =>
  t.temporal.workflow.getHandle(imageCatchUpWorkflowId(versionId, hypervisorId));
const heartbeat = (hypervisorId: string) =>
  acceptHeartbeat(
    t.deps,
    { hypervisorId, credentialId: randomUUID() },
    { agentVersion: 'test', capabilities: [], free: { cpuCores: 1, memoryMb: 1024, diskMb: 10_240 } },
  );
const markUnreachable = (hypervisorId: string) =>
  t.db.updateTable('hypervisors').set({ status: 'unreachable' }).where('id', '=', hypervisorId).execute();
/** An enrolled hypervisor whose agent sent its first heartbeat: the next one is far off (a third of the silence). */
async function heardFrom(locationId: string) {
  const { hypervisor, agent } = await t.hypervisorWithAgent({}, { locationId });
  await eventually(
    async () => (await findHypervisor(t.db, hypervisor.id))?.free_cpu_cores != null,
    30_000,
    'the first heartbeat',
  );
  return { hypervisor, host: agent as InProcessAgent };
}

describe('a hypervisor that comes online', () => {
  it('enrolled after a version was added, fetches it with no distribution asked; a deprecated one it does not', async () => {
    const location = await ownLocation();
    const versionId = await addVersion(location.code);
    const deprecatedId = await addVersion(location.code);
    expect((await admin('PATCH', `/image-versions/${deprecatedId}`, { deprecated: true })).status).toBe(200);
    // Both distributions over before the host joins (a busy machine may run them late): what it
    // then fetches, the catch-up fetched.
    for (const id of [versionId, deprecatedId])
      expect(await t.temporal.workflow.getHandle(imageDistributionWorkflowId(id)).result()).toEqual({
        ready: 0,
        failed: 0,
      });

    const { hypervisor, agent } = await t.hypervisorWithAgent({}, { locationId: location.id });
    const joined = agent as InProcessAgent;
    expect(await readyOn(versionId, hypervisor.id)).toMatchObject({
      state: 'ready',
      size_mb: 1,
      error: null,
    });
    expect(stored(joined, versionId).equals(DISK)).toBe(true);
    expect(await catchUpRun(versionId, hypervisor.id).result()).toBe('ready');
    expect(fetchesOf(joined, versionId)).toHaveLength(1);
    expect(fetchesOf(joined, deprecatedId)).toHaveLength(0);
    expect((await copyOn(deprecatedId, hypervisor.id))?.state).not.toBe('ready');
  });

  it('back from unreachable, fetches what was added while it was away; back again, and twice at once, fetches nothing twice', async () => {
    const location = await ownLocation();
    const { hypervisor, host } = await heardFrom(location.id);
    await markUnreachable(hypervisor.id);
    const versionId = await addVersion(location.code);
    // Away while the version's distribution ran: it was not asked to fetch, its copy pending. Its
    // next heartbeat (the agent's own, or this one) brings it back.
    expect(await t.temporal.workflow.getHandle(imageDistributionWorkflowId(versionId)).result()).toEqual({
      ready: 0,
      failed: 0,
    });
    expect(fetchesOf(host, versionId)).toHaveLength(0);
    expect((await copyOn(versionId, hypervisor.id))?.state).toBe('pending');
    expect((await heartbeat(hypervisor.id)).status).toBe('online');
    await readyOn(versionId, hypervisor.id);
    expect(stored(host, versionId).equals(DISK)).toBe(true);
    // The version's own distribution, still running on a busy machine, may take the new host and
    // fetch first: the catch-up then finds the copy held. Either way it is fetched once.
    expect(['ready', 'held']).toContain(await catchUpRun(versionId, hypervisor.id).result());

    // Back again: the copy is ready, nothing is fetched.
    await markUnreachable(hypervisor.id);
    await heartbeat(hypervisor.id);
    // Twice at once: the one catch-up run per version and hypervisor is joined, or finds it ready.
    await markUnreachable(hypervisor.id);
    await Promise.all([heartbeat(hypervisor.id), heartbeat(hypervisor.id)]);
    await Promise.all([fetchLackedImages(t.deps, hypervisor.id), fetchLackedImages(t.deps, hypervisor.id)]);
    await catchUpRun(versionId, hypervisor.id).result();
    expect(fetchesOf(host, versionId)).toHaveLength(1);
    expect((await copyOn(versionId, hypervisor.id))?.state).toBe('ready');
  });

  it('lacking a version, fetched twice at once and beside a distribution, fetches it once', async () => {
    const location = await ownLocation();
    const { hypervisor, host } = await heardFrom(location.id);
    await markUnreachable(hypervisor.id);
    const versionId = await addVersion(location.code);
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
    await Promise.all([
      fetchLackedImages(t.deps, hypervisor.id),
      fetchLackedImages(t.deps, hypervisor.id),
      admin('POST', `/image-versions/${versionId}/distribute`),
    ]);
    await readyOn(versionId, hypervisor.id);
    await catchUpRun(versionId, hypervisor.id).result();
    expect(fetchesOf(host, versionId)).toHaveLength(1);
  });
});

describe('the worker’s sweep', () => {
  /** The version added, and its copy on the hypervisor last touched, an hour ago. */
  async function anHourOld(versionId: string) {
    const hourAgo = new Date(Date.now() - 3_600_000);
    await t.db
      .updateTable('image_versions')
      .set({ created_at: hourAgo })
      .where('id', '=', versionId)
      .execute();
    await t.db
      .updateTable('image_version_hosts')
      .set({ updated_at: hourAgo })
      .where('image_version_id', '=', versionId)
      .execute();
  }
  /** Online again with no catch-up started: what a start Temporal did not take leaves. */
  async function owedAVersion() {
    const location = await ownLocation();
    const { hypervisor, host } = await heardFrom(location.id);
    await markUnreachable(hypervisor.id);
    const versionId = await addVersion(location.code);
    expect(await t.temporal.workflow.getHandle(imageDistributionWorkflowId(versionId)).result()).toEqual({
      ready: 0,
      failed: 0,
    });
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
    return { hypervisor, host, versionId };
  }

  it('has an online hypervisor fetch a copy it was owed and nobody fetched, once the copy is old enough; twice, once', async () => {
    const { hypervisor, host, versionId } = await owedAVersion();
    await fetchOwedImages(t.deps);
    expect((await copyOn(versionId, hypervisor.id))?.state).toBe('pending');
    expect(fetchesOf(host, versionId)).toHaveLength(0);

    await anHourOld(versionId);
    await fetchOwedImages(t.deps);
    expect(await readyOn(versionId, hypervisor.id)).toMatchObject({ state: 'ready', error: null });
    expect(await catchUpRun(versionId, hypervisor.id).result()).toBe('ready');
    expect(stored(host, versionId).equals(DISK)).toBe(true);
    await anHourOld(versionId);
    await fetchOwedImages(t.deps);
    expect(fetchesOf(host, versionId)).toHaveLength(1);
  });

  it('run twice at once, fetches an owed copy once', async () => {
    const { hypervisor, host, versionId } = await owedAVersion();
    await anHourOld(versionId);
    await Promise.all([fetchOwedImages(t.deps), fetchOwedImages(t.deps)]);
    await readyOn(versionId, hypervisor.id);
    await catchUpRun(versionId, hypervisor.id).result();
    expect(fetchesOf(host, versionId)).toHaveLength(1);
  });

  it('leaves a failed copy alone: a source that keeps failing is not fetched from at every pass', async () => {
    const location = await ownLocation();
    const { hypervisor, host } = await heardFrom(location.id);
    const versionId = await addVersion(location.code, 'f'.repeat(64));
    expect(await t.temporal.workflow.getHandle(imageDistributionWorkflowId(versionId)).result()).toEqual({
      ready: 0,
      failed: 1,
    });
    const failed = await copyOn(versionId, hypervisor.id);
    expect(failed).toMatchObject({ state: 'failed', error: { code: 'IMAGE_CHECKSUM_MISMATCH' } });
    const fetches = fetchesOf(host, versionId).length;
    await anHourOld(versionId);
    await fetchOwedImages(t.deps);
    expect(fetchesOf(host, versionId)).toHaveLength(fetches);
    expect(await copyOn(versionId, hypervisor.id)).toMatchObject({ state: 'failed', error: failed!.error });
  });
});

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageDistributionWorkflowId } from '../../domain/workflow-ids.js';
import type { InProcessAgent } from '../support/agents/in-process.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * An image version distributed: each online hypervisor of its locations fetches it for real (the
 * simulated driver runs the agent's own fetcher) from a server of the test's own on loopback,
 * verifies its checksum, and puts it in its image store; the panel records each copy `ready`.
 */
const DISK = randomBytes(1024 * 1024 + 17);
const digest = (algorithm: string) => createHash(algorithm).update(DISK).digest('hex');
let t: Stack;
let server: Server;
let base: string;
let locationCode: string;
let hosts: { id: string; agent: InProcessAgent }[];
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/disk.img') return res.end(DISK);
    if (req.url === '/moved') return res.writeHead(302, { location: '/disk.img' }).end();
    if (req.url === '/to-metadata')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
    if (req.url === '/large') return res.end(randomBytes(3 * 1024 * 1024));
    if (req.url === '/truncated') {
      res.writeHead(200, { 'content-length': String(DISK.length) });
      res.write(DISK.subarray(0, 1024));
      return setTimeout(() => res.socket?.destroy(), 20);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startStack({
    agents: true,
    config: { ISO_ALLOW_HTTP: 'true', ISO_ALLOWED_NETWORKS: '127.0.0.0/8', IMAGE_MAX_SIZE_MB: '2' },
  });
  locationCode = (
    await t.db.selectFrom('locations').select('code').where('id', '=', t.locationId).executeTakeFirstOrThrow()
  ).code;
  hosts = [];
  for (let i = 0; i < 2; i++) {
    const { hypervisor, agent } = await t.hypervisorWithAgent({}, { locationId: t.locationId });
    hosts.push({ id: hypervisor.id, agent: agent as InProcessAgent });
  }
});
afterAll(async () => {
  server.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

async function newImage() {
  const code = `image-${randomUUID().slice(0, 8)}`;
  const res = await admin('POST', '/images', { code, name: 'Imported', os_family: 'other', min_disk_mb: 64 });
  return res.body.attributes.uuid as string;
}

const source = (overrides: Record<string, unknown> = {}) => ({
  url: `${base}/disk.img`,
  checksum_algorithm: 'sha256',
  checksum: digest('sha256'),
  format: 'raw',
  locations: [locationCode],
  ...overrides,
});

/** The version once no copy of it is `pending` or `fetching`. */
const settled = (versionId: string) =>
  eventually(
    async () => {
      const { body } = await admin('GET', `/image-versions/${versionId}`);
      const copies = body.attributes.hypervisors as Body[];
      return copies.every((h) => ['ready', 'failed'].includes(h.state) || !onlineIds().includes(h.uuid))
        ? body.attributes
        : undefined;
    },
    30_000,
    `version ${versionId} to settle`,
  );
const onlineIds = () => hosts.map((h) => h.id);
const copyOf = (version: Body, hypervisorId: string) =>
  (version.hypervisors as Body[]).find((h) => h.uuid === hypervisorId);
const storeOf = (agent: InProcessAgent) => join(agent.stateDir, 'images');
const fetchesOf = (agent: InProcessAgent, versionId: string) =>
  agent.hypervisor().applied.filter((a) => a.type === 'image.fetch' && a.instance_id === versionId);

describe('an image version distributed to its locations', () => {
  it('is fetched, verified and put in the store of each online hypervisor; one offline stays pending', async () => {
    const offline = await seed.hypervisor(t.db, t.locationId);
    const imageId = await newImage();
    const added = await admin('POST', `/images/${imageId}/versions`, source());
    expect(added.status).toBe(201);
    const version = await settled(added.body.attributes.uuid);
    for (const { id, agent } of hosts) {
      expect(copyOf(version, id)).toMatchObject({ state: 'ready', size_mb: 2, error: null });
      const disk = join(storeOf(agent), version.uuid, 'disk.raw');
      expect(readFileSync(disk).equals(DISK)).toBe(true);
      expect(fetchesOf(agent, version.uuid)).toHaveLength(1);
      expect(readdirSync(join(storeOf(agent), '.incoming'))).toEqual([]);
    }
    expect(copyOf(version, offline.id)).toMatchObject({ state: 'pending' });
  });

  it('follows a redirect within the allowed addresses, and verifies a sha512', async () => {
    const imageId = await newImage();
    const added = await admin(
      'POST',
      `/images/${imageId}/versions`,
      source({
        url: `${base}/moved`,
        checksum_algorithm: 'sha512',
        checksum: digest('sha512'),
        format: 'qcow2',
      }),
    );
    const version = await settled(added.body.attributes.uuid);
    for (const { id, agent } of hosts) {
      expect(copyOf(version, id)?.state).toBe('ready');
      expect(existsSync(join(storeOf(agent), version.uuid, 'disk.qcow2'))).toBe(true);
    }
  });

  it('distributed again (twice, and two at once) fetches nothing twice; a hypervisor that joined gets its copy', async () => {
    const imageId = await newImage();
    const added = await admin('POST', `/images/${imageId}/versions`, source());
    const versionId = added.body.attributes.uuid;
    await settled(versionId);
    const again = await admin('POST', `/image-versions/${versionId}/distribute`);
    expect(again.status).toBe(202);
    await settled(versionId);
    const both = await Promise.all([
      admin('POST', `/image-versions/${versionId}/distribute`),
      admin('POST', `/image-versions/${versionId}/distribute`),
    ]);
    expect(statusesOf(both)).toEqual([202, 202]);
    await settled(versionId);
    for (const { agent } of hosts) expect(fetchesOf(agent, versionId)).toHaveLength(1);

    const { hypervisor, agent } = await t.hypervisorWithAgent({}, { locationId: t.locationId });
    hosts.push({ id: hypervisor.id, agent: agent as InProcessAgent });
    expect((await admin('POST', `/image-versions/${versionId}/distribute`)).status).toBe(202);
    const version = await settled(versionId);
    expect(copyOf(version, hypervisor.id)).toMatchObject({ state: 'ready', size_mb: 2 });
    // Every run has ended by now (the last one fetched for the newcomer): the others fetched once.
    for (const host of hosts) expect(fetchesOf(host.agent, versionId)).toHaveLength(1);
    expect((await admin('POST', `/image-versions/${randomUUID()}/distribute`)).status).toBe(404);
  });

  it('a fetch that fails once is retried; one that fails for good leaves that copy failed and the others ready', async () => {
    const [flaky, broken] = hosts;
    flaky!.agent.armFault('image.fetch', { mode: 'fail' });
    broken!.agent.armFault('image.fetch', { mode: 'fail-permanently' });
    const imageId = await newImage();
    const added = await admin('POST', `/images/${imageId}/versions`, source());
    const version = await settled(added.body.attributes.uuid);
    expect(copyOf(version, flaky!.id)).toMatchObject({ state: 'ready', error: null });
    expect(copyOf(version, broken!.id)).toMatchObject({
      state: 'failed',
      size_mb: null,
      error: { code: 'SIMULATED_FAILURE' },
    });
    expect(existsSync(join(storeOf(broken!.agent), version.uuid))).toBe(false);
    // Distributed again, the failed copy is fetched; the ready one is not.
    expect((await admin('POST', `/image-versions/${version.uuid}/distribute`)).status).toBe(202);
    const again = await eventually(
      async () => {
        const { body } = await admin('GET', `/image-versions/${version.uuid}`);
        return copyOf(body.attributes, broken!.id)?.state === 'ready' ? body.attributes : undefined;
      },
      30_000,
      'the failed copy to be fetched again',
    );
    expect(copyOf(again, broken!.id)).toMatchObject({ state: 'ready', error: null });
    expect(fetchesOf(flaky!.agent, version.uuid)).toHaveLength(1);
  });

  it('a bad source fails every copy with its reason and leaves nothing in any store; distributed again, and twice at once, it fails alike', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ url: `${base}/to-metadata` }, 'IMAGE_ADDRESS_REFUSED', /redirects to 169\.254\.169\.254/],
      [{ checksum: 'ab'.repeat(32) }, 'IMAGE_CHECKSUM_MISMATCH', /not the abab/],
      [{ url: `${base}/truncated` }, 'IMAGE_TRUNCATED', /ended after 1024 of \d+ bytes/],
      [{ url: `${base}/large` }, 'IMAGE_TOO_LARGE', /larger than 2 MB/],
    ];
    const imageId = await newImage();
    const versions = await Promise.all(
      cases.map(async ([overrides]) => {
        const res = await admin('POST', `/images/${imageId}/versions`, source(overrides));
        expect(res.status).toBe(201);
        return res.body.attributes.uuid as string;
      }),
    );
    const expectFailed = async () => {
      // Every version settled first: another's fetch may still be writing beside it until then.
      const all = await Promise.all(versions.map((v) => settled(v)));
      for (const [i, [, code, message]] of cases.entries()) {
        const version = all[i]!;
        for (const { id, agent } of hosts) {
          expect(copyOf(version, id)).toMatchObject({ state: 'failed', size_mb: null, error: { code } });
          expect(copyOf(version, id)?.error.message).toMatch(message);
          expect(existsSync(join(storeOf(agent), version.uuid))).toBe(false);
          expect(readdirSync(join(storeOf(agent), '.incoming'))).toEqual([]);
        }
      }
    };
    await expectFailed();
    const checksumCase = versions[1]!;
    expect((await admin('POST', `/image-versions/${checksumCase}/distribute`)).status).toBe(202);
    const both = await Promise.all([
      admin('POST', `/image-versions/${checksumCase}/distribute`),
      admin('POST', `/image-versions/${checksumCase}/distribute`),
    ]);
    expect(statusesOf(both)).toEqual([202, 202]);
    // The run these joined (or started after the first) ends before the copies are read again.
    await t.temporal.workflow.getHandle(imageDistributionWorkflowId(checksumCase)).result();
    await expectFailed();
  });

  it('two versions added at once are both fetched by every hypervisor', async () => {
    const imageId = await newImage();
    const both = await Promise.all([
      admin('POST', `/images/${imageId}/versions`, source()),
      admin('POST', `/images/${imageId}/versions`, source()),
    ]);
    expect(statusesOf(both)).toEqual([201, 201]);
    for (const res of both) {
      const version = await settled(res.body.attributes.uuid);
      for (const { id } of hosts) expect(copyOf(version, id)?.state).toBe('ready');
    }
  });
});

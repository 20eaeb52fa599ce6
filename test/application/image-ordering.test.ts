import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessAgent } from '../support/agents/in-process.js';
import { serveDisk } from '../support/disk-server.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * An imported image ordered: only where a hypervisor holds its version ready, placed only on such a
 * hypervisor, written from that version; deprecated, it is not ordered and its instances run on.
 */
const DISK = randomBytes(64 * 1024);
let t: Stack;
let server: Awaited<ReturnType<typeof serveDisk>>;
let base: string;
let location: { id: string; code: string };
let plan: string;
let holder: { id: string; agent: InProcessAgent };
let lacking: { id: string; agent: InProcessAgent };
beforeAll(async () => {
  server = await serveDisk(DISK);
  base = server.base;
  t = await startStack({
    agents: true,
    config: {
      ISO_ALLOW_HTTP: 'true',
      ISO_ALLOWED_NETWORKS: '127.0.0.0/8',
      INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000',
    },
  });
  location = await seed.location(t.db);
  await seed.uniqueIpv4Pool(t.db, location.id);
  plan = (await seed.catalog(t.db)).plan.code;
  const hosts = [];
  for (let i = 0; i < 2; i++) {
    const { hypervisor, agent } = await t.hypervisorWithAgent({}, { locationId: location.id });
    hosts.push({ id: hypervisor.id, agent: agent as InProcessAgent });
  }
  [holder, lacking] = hosts as [typeof holder, typeof lacking];
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
const customer = (method: string, path: string, body?: unknown) =>
  t.call(t.client, method, `/api/client/cloud${path}`, body);

/** An image whose version only `holder` holds ready (`lacking`'s fetch fails for good). */
async function importedImage(): Promise<{ code: string; uuid: string; version: string }> {
  const code = `image-${randomUUID().slice(0, 8)}`;
  const image = (
    await admin('POST', '/images', { code, name: 'Imported', os_family: 'other', min_disk_mb: 64 })
  ).body.attributes;
  const version = await addVersion(image.uuid);
  return { code, uuid: image.uuid, version };
}

async function addVersion(imageId: string): Promise<string> {
  lacking.agent.armFault('image.fetch', { mode: 'fail-permanently' });
  const added = await admin('POST', `/images/${imageId}/versions`, {
    url: `${base}/disk.img`,
    checksum_algorithm: 'sha256',
    checksum: createHash('sha256').update(DISK).digest('hex'),
    format: 'raw',
    locations: [location.code],
  });
  expect(added.status).toBe(201);
  const versionId = added.body.attributes.uuid;
  await eventually(
    async () => {
      const copies = (await admin('GET', `/image-versions/${versionId}`)).body.attributes
        .hypervisors as Body[];
      const state = (id: string) => copies.find((c) => c.uuid === id)?.state;
      return state(holder.id) === 'ready' && state(lacking.id) === 'failed';
    },
    // A bound for a hang: a fetch from the loopback took over 30 s on a loaded 2-core machine.
    90_000,
    'the version ready on one hypervisor only',
  );
  return versionId;
}

const order = (image: string) =>
  customer('POST', '/', {
    hostname: `web-${randomUUID().slice(0, 6)}.example.com`,
    plan,
    image,
    location: location.code,
  });

async function running(instanceId: string): Promise<Body> {
  return eventually(
    async () => {
      const { body } = await customer('GET', `/${instanceId}`);
      return body.attributes?.status === 'running' ? body.attributes : undefined;
    },
    20_000,
    `instance ${instanceId} to run`,
  );
}

const placement = (instanceId: string) =>
  t.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'image_version_id'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();

describe('ordering an imported image', () => {
  it('is placed on a hypervisor that holds its version, written from it: twice, and two at once', async () => {
    const image = await importedImage();
    const first = await order(image.code);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const second = await order(image.code);
    expect(second.status).toBe(202);
    const both = await Promise.all([order(image.code), order(image.code)]);
    expect(statusesOf(both)).toEqual([202, 202]);
    for (const res of [first, second, ...both]) {
      const id = res.body.attributes.uuid;
      await running(id);
      expect(await placement(id)).toEqual({ hypervisor_id: holder.id, image_version_id: image.version });
      expect(holder.agent.hypervisor().instances[id]?.image).toBe(image.version);
    }
  });

  it('is refused with 409 IMAGE_NOT_AVAILABLE where no hypervisor holds a version yet, creating nothing', async () => {
    const code = `image-${randomUUID().slice(0, 8)}`;
    const image = (
      await admin('POST', '/images', { code, name: 'Not yet', os_family: 'other', min_disk_mb: 64 })
    ).body.attributes;
    const elsewhere = await seed.location(t.db);
    const pending = await admin('POST', `/images/${image.uuid}/versions`, {
      url: `${base}/disk.img`,
      checksum_algorithm: 'sha256',
      checksum: createHash('sha256').update(DISK).digest('hex'),
      format: 'raw',
      locations: [elsewhere.code],
    });
    expect(pending.status).toBe(201);
    for (const refused of await Promise.all([order(code), order(code)])) {
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('IMAGE_NOT_AVAILABLE');
    }
    const made = await t.db.selectFrom('instances').select('id').where('image_id', '=', image.uuid).execute();
    expect(made).toEqual([]);
  });

  it('deprecated, is refused for new orders and rebuilds while its instances run on; a newer version is taken', async () => {
    const image = await importedImage();
    const before = await order(image.code);
    const instanceId = before.body.attributes.uuid;
    await running(instanceId);
    expect((await admin('PATCH', `/image-versions/${image.version}`, { deprecated: true })).status).toBe(200);
    const refused = await order(image.code);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('IMAGE_NOT_AVAILABLE');
    const rebuild = await customer('POST', `/${instanceId}/rebuild`, {});
    expect(rebuild.status).toBe(409);
    expect(rebuild.body.errors[0].code).toBe('IMAGE_NOT_AVAILABLE');
    expect((await running(instanceId)).status).toBe('running');
    expect(await placement(instanceId)).toEqual({
      hypervisor_id: holder.id,
      image_version_id: image.version,
    });

    const newer = await addVersion(image.uuid);
    const after = await order(image.code);
    expect(after.status).toBe(202);
    await running(after.body.attributes.uuid);
    expect((await placement(after.body.attributes.uuid)).image_version_id).toBe(newer);
    // The old instance rebuilt takes the newer version too.
    expect((await customer('POST', `/${instanceId}/rebuild`, {})).status).toBe(202);
    await eventually(
      async () => (await placement(instanceId)).image_version_id === newer,
      20_000,
      'the rebuild to record the newer version',
    );
    await running(instanceId);
    expect(holder.agent.hypervisor().instances[instanceId]?.image).toBe(newer);
  });
});

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { deleteStoreImage, guestsUsingImage } from '../../agent/drivers/qemu/artifacts/image-imports.js';
import { ImageStore } from '../../agent/drivers/qemu/artifacts/image-store.js';
import type { QemuState } from '../../agent/drivers/qemu/guests/state.js';
import { SimulatedDriver } from '../../agent/drivers/simulated/driver.js';
import { fetchImageInto } from '../../agent/media/image-fetch.js';
import { removeStoredImage } from '../../agent/media/image-removal.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';

/**
 * `image.delete`: a deleted version's copy leaves a hypervisor's image store, with whatever a fetch
 * of it left in `.incoming/`; refused (IMAGE_IN_USE) while a guest there was made from it, since its
 * boot reads the image from the store; a copy not there is done. The QEMU driver's handler is run
 * on a store and a state file's guests, with no guest booted; the simulated driver's through its
 * `execute`, as its agent runs it.
 */
const DISK = Buffer.from('a disk, served on loopback');
let server: Server;
let url: string;
const dirs: string[] = [];
beforeAll(async () => {
  server = createServer((_req, res) => res.end(DISK));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/disk.img`;
});
afterAll(() => {
  server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const fetchParams = (image: string) => ({
  image,
  url,
  checksum_algorithm: 'sha256' as const,
  checksum: createHash('sha256').update(DISK).digest('hex'),
  format: 'raw' as const,
  max_mb: 1,
  allowed_networks: ['127.0.0.0/8'],
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** A store holding the version's disk, and a fetch of it cut off in `.incoming/`, beside another version's. */
function storeWith(image: string, other: string) {
  const store = tempDir('image-store-');
  for (const name of [image, other]) {
    mkdirSync(join(store, name));
    writeFileSync(join(store, name, 'disk.qcow2'), 'a disk');
  }
  mkdirSync(join(store, '.incoming', `${image}-${randomUUID()}`), { recursive: true });
  mkdirSync(join(store, '.incoming', `${other}-${randomUUID()}`), { recursive: true });
  return store;
}

const guest = (image: string) => ({ image }) as QemuState['instances'][string];
const arriving = (instanceId: string, image?: string) =>
  ({ instance_id: instanceId, ...(image && { image }) }) as QemuState['incoming'][string];

async function failureOf(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const failure = error as { code: string; retryable: boolean; message: string };
    return { code: failure.code, retryable: failure.retryable, message: failure.message };
  }
  throw new Error('expected a failure');
}

describe('the QEMU driver’s image.delete', () => {
  it('finds the guests made from the image, arriving ones included', () => {
    const image = randomUUID();
    const state = {
      instances: { a: guest(image), b: guest('debian-12'), c: guest(image) },
      incoming: { m1: arriving('d', image), m2: arriving('e'), m3: arriving('a', image) },
    };
    expect(guestsUsingImage(state, image)).toEqual(['a', 'c', 'd']);
    expect(guestsUsingImage(state, randomUUID())).toEqual([]);
  });

  it('removes the copy and what a fetch of it left, the other version’s untouched; asked again, nothing', () => {
    const image = randomUUID();
    const other = randomUUID();
    const store = new ImageStore(storeWith(image, other));
    const state = { instances: { a: guest(other) }, incoming: {} };
    expect(store.find(image)?.boot).toBe('firmware');
    expect(deleteStoreImage(store, state, { image })).toEqual({ removed: true });
    expect(store.find(image)).toBeUndefined();
    expect(existsSync(join(store.dir, image))).toBe(false);
    expect(readdirSync(join(store.dir, '.incoming')).map((n) => n.slice(0, 36))).toEqual([other]);
    expect(store.find(other)?.boot).toBe('firmware');
    expect(deleteStoreImage(store, state, { image })).toEqual({ removed: false });
  });

  it('refuses while a guest, or one arriving, was made from it, and removes nothing', async () => {
    const image = randomUUID();
    const store = new ImageStore(storeWith(image, randomUUID()));
    const states: Pick<QemuState, 'instances' | 'incoming'>[] = [
      { instances: { a: guest(image) }, incoming: {} },
      { instances: {}, incoming: { m: arriving('b', image) } },
    ];
    for (const state of states) {
      const refused = await failureOf(() => deleteStoreImage(store, state, { image }));
      expect(refused).toMatchObject({ code: 'IMAGE_IN_USE', retryable: false });
      expect(refused.message).toContain(Object.keys(state.instances)[0] ?? 'b');
      expect(store.find(image)?.boot).toBe('firmware');
    }
  });
});

describe('a removed version in the store', () => {
  it('is not put back by a fetch of it under way, nor fetched again', async () => {
    const store = tempDir('image-store-');
    const image = randomUUID();
    const signal = new AbortController().signal;
    // Removed while its fetch runs (the fetch's own checks done, before its rename into the store).
    const cutAcross = await failureOf(() =>
      fetchImageInto(store, fetchParams(image), signal, async () => {
        expect(removeStoredImage(store, { image }, [])).toEqual({ removed: true });
      }),
    );
    expect(cutAcross).toMatchObject({ code: 'IMAGE_REMOVED', retryable: false });
    expect(existsSync(join(store, image))).toBe(false);
    expect(readdirSync(join(store, '.incoming'))).toEqual([]);
    expect((await failureOf(() => fetchImageInto(store, fetchParams(image), signal))).code).toBe(
      'IMAGE_REMOVED',
    );
    expect(existsSync(join(store, image))).toBe(false);
    // Another version is fetched as ever.
    const other = randomUUID();
    expect(await fetchImageInto(store, fetchParams(other), signal)).toMatchObject({ fetched: true });
    expect(existsSync(join(store, other, 'disk.raw'))).toBe(true);
  });
});

const noPanel = () => Promise.reject(new Error('no panel in this test'));
const idle = { signal: new AbortController().signal, progress: () => {}, redeemTransfer: noPanel };

describe('the simulated hypervisor’s image.delete', () => {
  it('is refused while an instance there was made from it; once it is gone, removes the copy once', async () => {
    const stateDir = tempDir('simulated-image-delete-');
    const driver = new SimulatedDriver(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:1',
        AGENT_STATE_DIR: stateDir,
        AGENT_SIM_LATENCY_MS: '{"default":0}',
      }),
    );
    const image = randomUUID();
    mkdirSync(join(stateDir, 'images', image), { recursive: true });
    writeFileSync(join(stateDir, 'images', image, 'disk.raw'), 'a disk');
    const instanceId = randomUUID();
    await driver.execute('instance.create', simulatedInstance(instanceId, image), idle);
    const run = (type: AgentTaskType, params: object) => driver.execute(type, params, idle);

    expect(await failureOf(() => run('image.delete', { image }))).toMatchObject({
      code: 'IMAGE_IN_USE',
      retryable: false,
    });
    expect(existsSync(join(stateDir, 'images', image, 'disk.raw'))).toBe(true);

    await run('instance.delete', { instance_id: instanceId });
    expect(await run('image.delete', { image })).toEqual({ removed: true });
    expect(existsSync(join(stateDir, 'images', image))).toBe(false);
    expect(await run('image.delete', { image })).toEqual({ removed: false });
    expect(driver.snapshot().applied.filter((a) => a.type === 'image.delete')).toHaveLength(1);
    expect((await failureOf(() => run('image.fetch', fetchParams(image)))).code).toBe('IMAGE_REMOVED');
    expect(existsSync(join(stateDir, 'images', image))).toBe(false);
    expect((await failureOf(() => run('image.delete', { image: 'not-a-uuid' }))).code).toBe('INVALID_PARAMS');
  });
});

function simulatedInstance(instanceId: string, image: string) {
  return {
    instance_id: instanceId,
    hostname: 'web-1.example.test',
    timezone: 'UTC',
    root_password: 'correct horse battery staple',
    ssh_keys: [],
    cpu_cores: 1,
    memory_mb: 512,
    disk_mb: 1024,
    image,
    boot_order: ['disk'],
    ipv4: null,
    ipv6: null,
    start: true,
  };
}

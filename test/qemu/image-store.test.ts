import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { DriverFailure } from '../../agent/drivers/driver.js';
import { configuredImage, FAST_IMAGE, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import {
  createParams,
  qemuAccelerator,
  SMALL_GUEST,
  stopDrivers,
  taskContext,
} from '../support/qemu-hosts.js';

/**
 * The agent's image store: a guest is made only from an image the hypervisor has, and a migration
 * target without the guest's image refuses before anything moves.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/image-store skipped: ${missing}`);

describe.runIf(!missing)('the QEMU driver’s image store', () => {
  const dirs: string[] = [];
  const drivers: QemuDriver[] = [];
  const ctx = taskContext();
  const scratch = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const start = (store: string) =>
    QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: scratch('image-store-state-'),
        AGENT_QEMU_IMAGE_STORE: store,
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );

  let driver: QemuDriver;
  beforeAll(async () => {
    // A store with the fast image only, under its own code.
    const store = scratch('image-store-');
    symlinkSync(configuredImage(FAST_IMAGE)!.disk.replace(/\/disk\.qcow2$/, ''), join(store, FAST_IMAGE));
    driver = await start(store);
    drivers.push(driver);
  });
  afterAll(() => {
    stopDrivers(drivers);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) =>
        error instanceof DriverFailure ? { code: error.code, retryable: error.retryable } : error,
    );

  it('refuses to start without an image, naming the script that builds one', async () => {
    const empty = scratch('image-store-empty-');
    mkdirSync(join(empty, 'half-an-image'));
    await expect(start(empty)).rejects.toThrow(/no image in .*scripts\/images\/busybox\.sh/);
  });

  it('refuses a guest of an image it does not have, twice, and leaves nothing behind', async () => {
    const id = randomUUID();
    for (const image of ['debian-99', '../busybox']) {
      const refused = await failure(driver.execute('instance.create', createParams(id, { image }), ctx));
      expect(refused).toEqual({ code: 'IMAGE_NOT_AVAILABLE', retryable: false });
    }
    expect(driver.snapshot().instances[id]).toBeUndefined();
    expect(driver.guestDir(id)).toBeUndefined();
  });

  it('as a migration target, refuses a guest whose image it lacks before it makes room, twice', async () => {
    const params = {
      migration_id: randomUUID(),
      instance_id: randomUUID(),
      image: 'debian-99',
      hostname: 'guest.example.test',
      ...SMALL_GUEST,
    };
    for (let i = 0; i < 2; i++) {
      const refused = await failure(driver.execute('migration.prepare_target', params, ctx));
      expect(refused).toEqual({ code: 'IMAGE_NOT_AVAILABLE', retryable: false });
    }
    expect(driver.snapshot().incoming[params.migration_id]).toBeUndefined();
    const prepared = await driver.execute('migration.prepare_target', { ...params, image: FAST_IMAGE }, ctx);
    expect(prepared).toEqual({ prepared: true });
    expect(existsSync(driver.snapshot().incoming[params.migration_id]!.dir)).toBe(true);
  });
});

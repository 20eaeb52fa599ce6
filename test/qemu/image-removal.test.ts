import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { configuredImage, FAST_IMAGE, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from '../support/qemu-hosts.js';

/**
 * `image.delete` on the QEMU driver, through its `execute`, with no guest booted: a guest made (not
 * started) from an imported version has a standalone disk, yet its boots read the image from the
 * store, so the copy is refused while the guest is here and removed once it is gone.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/image-removal skipped: ${missing}`);

describe.runIf(!missing)('a deleted version’s copy on the QEMU driver', () => {
  const dirs: string[] = [];
  const scratch = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const ctx = taskContext();
  let driver: QemuDriver;
  let store: string;
  beforeAll(async () => {
    store = scratch('removal-store-');
    // The fast image: the driver probes its accelerator with a kernel of its store.
    symlinkSync(configuredImage(FAST_IMAGE)!.disk.replace(/\/disk\.qcow2$/, ''), join(store, FAST_IMAGE));
    driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: scratch('removal-state-'),
        AGENT_QEMU_IMAGE_STORE: store,
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );
  });
  afterAll(() => {
    stopDrivers([driver]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** An imported version's copy in the store, as `image.fetch` leaves it. */
  const storedVersion = () => {
    const image = randomUUID();
    mkdirSync(join(store, image));
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', join(store, image, 'disk.qcow2'), '32M']);
    return image;
  };

  it('is refused while a guest made from it is here, and removed once the guest is gone; again, nothing', async () => {
    const image = storedVersion();
    const id = randomUUID();
    await driver.execute('instance.create', createParams(id, { image, start: false }), ctx);
    const info = JSON.parse(
      execFileSync('qemu-img', ['info', '--output=json', guestFiles(driver.guestDir(id)!).disk]).toString(),
    ) as Record<string, unknown>;
    // A copy, not an overlay: the guest's disk names no backing file.
    expect(info['backing-filename']).toBeUndefined();

    const refused = await driver.execute('image.delete', { image }, ctx).then(
      () => undefined,
      (error: { code: string; retryable: boolean; message: string }) => error,
    );
    expect(refused).toMatchObject({ code: 'IMAGE_IN_USE', retryable: false });
    expect(refused?.message).toContain(id);
    expect(existsSync(join(store, image, 'disk.qcow2'))).toBe(true);

    await driver.execute('instance.delete', { instance_id: id }, ctx);
    expect(await driver.execute('image.delete', { image }, ctx)).toEqual({ removed: true });
    expect(existsSync(join(store, image))).toBe(false);
    expect(await driver.execute('image.delete', { image }, ctx)).toEqual({ removed: false });
  });

  it('removed twice at once, is removed once; a guest of another image is no obstacle', async () => {
    const image = storedVersion();
    const other = randomUUID();
    await driver.execute('instance.create', createParams(other, { start: false }), ctx);
    const both = await Promise.all([
      driver.execute('image.delete', { image }, ctx),
      driver.execute('image.delete', { image }, ctx),
    ]);
    expect(both).toEqual([{ removed: true }, { removed: false }]);
    expect(existsSync(join(store, image))).toBe(false);
    expect(existsSync(join(store, FAST_IMAGE))).toBe(true);
  });
});

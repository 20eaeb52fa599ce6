import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DriverFailure } from '../../agent/drivers/driver.js';
import { ImageStore } from '../../agent/drivers/qemu/artifacts/image-store.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { type QemuConfig, QemuGuests } from '../../agent/drivers/qemu/guests/guests.js';
import { deleteGuestIso } from '../../agent/drivers/qemu/guests/media.js';
import { qemuStatePath } from '../../agent/drivers/qemu/guests/state.js';

/**
 * The QEMU driver's `iso.delete` on a host of files in a temporary directory (no guest is booted:
 * the task touches only the guest's library, its files and the state file): it removes the file
 * the fetch stored and the library's entry, and a second run finds nothing to do.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A host whose state file holds one guest with one fetched ISO, its file where `iso.fetch` puts it. */
function hostWithIso(options: { mounted?: boolean } = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), 'qemu-iso-delete-'));
  dirs.push(stateDir);
  const config: QemuConfig = {
    AGENT_STATE_DIR: stateDir,
    AGENT_CAPACITY: { cpu_cores: 4, memory_mb: 4096, disk_mb: 100_000 },
    AGENT_QEMU_IMAGE_STORE: join(stateDir, 'images'),
    AGENT_QEMU_LISTEN_HOST: '127.0.0.1',
    AGENT_QEMU_ACCEL: 'tcg',
    AGENT_QEMU_STOP_TIMEOUT_MS: 1000,
  };
  const open = () =>
    new QemuGuests(config, new ImageStore(config.AGENT_QEMU_IMAGE_STORE), {
      accelerator: 'tcg',
      reason: 'test',
    });
  const guests = open();
  const instanceId = randomUUID();
  const isoId = randomUUID();
  const dir = join(stateDir, 'guests', instanceId);
  guests.state.instances[instanceId] = {
    dir,
    hostname: 'web-1.example.test',
    cpu_cores: 1,
    memory_mb: 256,
    disk_mb: 1024,
    image: 'busybox',
    created_at: new Date().toISOString(),
    last_rebuild_id: null,
    isos: { [isoId]: { size_mb: 1, sha256: 'a'.repeat(64) } },
    mounted_iso: options.mounted ? isoId : null,
  };
  guests.save();
  const file = guestFiles(dir).iso(isoId);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, 'an iso');
  return {
    stateDir,
    guests,
    open,
    instanceId,
    isoId,
    file,
    params: { instance_id: instanceId, iso_id: isoId },
  };
}

const failureOf = (run: () => unknown) => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof DriverFailure ? { code: error.code, retryable: error.retryable } : error;
  }
};

describe('the QEMU driver’s iso.delete', () => {
  it('removes the ISO’s file and its library entry, kept in the state file; a second run finds nothing', () => {
    const host = hostWithIso();
    expect(deleteGuestIso(host.guests, host.params)).toEqual({ deleted: true });
    expect(existsSync(host.file)).toBe(false);
    expect(host.guests.state.instances[host.instanceId]!.isos).toEqual({});
    // What a restarted agent reads: the entry is gone from the file too.
    const onDisk = JSON.parse(readFileSync(qemuStatePath(host.stateDir), 'utf8'));
    expect(onDisk.instances[host.instanceId].isos).toEqual({});
    expect(host.open().state.instances[host.instanceId]!.isos).toEqual({});

    expect(deleteGuestIso(host.guests, host.params)).toEqual({ deleted: false });
    expect(deleteGuestIso(host.open(), host.params)).toEqual({ deleted: false });
  });

  it('removes a file whose entry is gone, and what a fetch cut off by a crash left beside it', () => {
    const host = hostWithIso();
    host.guests.state.instances[host.instanceId]!.isos = {};
    writeFileSync(`${host.file}.partial`, 'half an iso');
    expect(deleteGuestIso(host.guests, host.params)).toEqual({ deleted: true });
    expect(existsSync(host.file)).toBe(false);
    expect(existsSync(`${host.file}.partial`)).toBe(false);
  });

  it('refuses the ISO in the guest’s drive, for good, and keeps its file and entry', () => {
    const host = hostWithIso({ mounted: true });
    for (let i = 0; i < 2; i++)
      expect(failureOf(() => deleteGuestIso(host.guests, host.params))).toEqual({
        code: 'ISO_MOUNTED',
        retryable: false,
      });
    expect(existsSync(host.file)).toBe(true);
    expect(host.guests.state.instances[host.instanceId]!.isos).toHaveProperty(host.isoId);
  });

  it('is done for a guest no longer on this host (its directory went with it)', () => {
    const host = hostWithIso();
    expect(deleteGuestIso(host.guests, { instance_id: randomUUID(), iso_id: host.isoId })).toEqual({
      deleted: false,
    });
    expect(existsSync(host.file)).toBe(true);
  });
});

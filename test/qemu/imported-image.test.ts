import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { DriverFailure } from '../../agent/drivers/driver.js';
import { configuredImage, FAST_IMAGE, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { guestFiles, guestPid } from '../../agent/drivers/qemu/guests/guest-process.js';
import { eventually } from '../support/eventually.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from '../support/qemu-hosts.js';

/**
 * An imported image on a real hypervisor: a whole bootable disk (a FAT filesystem with SYSLINUX,
 * the busybox image's kernel and initramfs on it) served by the test over HTTP, fetched by the QEMU
 * driver into its image store, and a guest made from it that the firmware boots from its disk.
 */
const tool = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const missing =
  qemuGuestsMissing() ??
  (['mkfs.vfat', 'syslinux', 'mcopy'].every(tool)
    ? undefined
    : 'mkfs.vfat, syslinux or mcopy is missing (apt-get install syslinux syslinux-common mtools dosfstools)');
if (missing) console.warn(`test/qemu/imported-image skipped: ${missing}`);

/** A bootable disk without a partition table: SYSLINUX in a FAT filesystem's boot sector, the busybox system beside it. */
function bootableDisk(dir: string): Buffer {
  const image = configuredImage(FAST_IMAGE)!;
  if (image.boot !== 'kernel') throw new Error('the busybox image boots by its kernel');
  const disk = join(dir, 'disk.raw');
  execFileSync('truncate', ['-s', '48M', disk]);
  execFileSync('mkfs.vfat', ['-n', 'IMPORTED', disk], { stdio: 'ignore' });
  execFileSync('syslinux', ['--install', disk]);
  const cfg = join(dir, 'syslinux.cfg');
  writeFileSync(
    cfg,
    'DEFAULT linux\nPROMPT 0\nTIMEOUT 0\nLABEL linux\n  KERNEL vmlinuz\n  INITRD initrd.img\n  APPEND console=ttyS0 panic=-1\n',
  );
  execFileSync('mcopy', ['-i', disk, image.kernel, '::/vmlinuz']);
  execFileSync('mcopy', ['-i', disk, image.initrd, '::/initrd.img']);
  execFileSync('mcopy', ['-i', disk, cfg, '::/syslinux.cfg']);
  return readFileSync(disk);
}

describe.runIf(!missing)('an imported image on the QEMU driver', () => {
  const dirs: string[] = [];
  const scratch = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const ctx = taskContext();
  let driver: QemuDriver;
  let store: string;
  let server: Server;
  let base: string;
  let disk: Buffer;
  let unsafe: Buffer;
  beforeAll(async () => {
    const work = scratch('imported-disk-');
    disk = bootableDisk(work);
    const leaning = join(work, 'leaning.qcow2');
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', '/etc/hostname', '-F', 'raw', leaning]);
    unsafe = readFileSync(leaning);
    server = createServer((req, res) => {
      if (req.url === '/disk.raw') return res.end(disk);
      if (req.url === '/leaning.qcow2') return res.end(unsafe);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    store = scratch('imported-store-');
    // The fast image too: the driver probes its accelerator with a kernel of its store.
    symlinkSync(configuredImage(FAST_IMAGE)!.disk.replace(/\/disk\.qcow2$/, ''), join(store, FAST_IMAGE));
    driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: scratch('imported-state-'),
        AGENT_QEMU_IMAGE_STORE: store,
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );
  });
  afterAll(() => {
    server?.close();
    stopDrivers([driver]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const fetchParams = (path: string, content: Buffer, format: 'raw' | 'qcow2') => ({
    image: randomUUID(),
    url: `${base}${path}`,
    checksum_algorithm: 'sha256',
    checksum: createHash('sha256').update(content).digest('hex'),
    format,
    max_mb: 64,
    allowed_networks: ['127.0.0.0/8'],
  });

  it('fetches the disk into the store as qcow2 (again, and twice at once, alike), and a guest boots it through its firmware', async () => {
    const p = fetchParams('/disk.raw', disk, 'raw');
    expect(await driver.execute('image.fetch', p, ctx)).toEqual({ size_mb: 48 });
    const both = await Promise.all([
      driver.execute('image.fetch', p, ctx),
      driver.execute('image.fetch', p, ctx),
    ]);
    expect(both).toEqual([{ size_mb: 48 }, { size_mb: 48 }]);
    expect(readdirSync(join(store, p.image)).sort()).toEqual(['disk.qcow2', 'fetched-bytes']);
    const info = JSON.parse(
      execFileSync('qemu-img', ['info', '--output=json', join(store, p.image, 'disk.qcow2')]).toString(),
    );
    expect(info.format).toBe('qcow2');

    const id = randomUUID();
    await driver.execute('instance.create', createParams(id, { image: p.image, memory_mb: 256 }), ctx);
    const dir = driver.guestDir(id)!;
    const console = await eventually(
      () => {
        const text = existsSync(guestFiles(dir).console) ? readFileSync(guestFiles(dir).console, 'utf8') : '';
        return /tick \d+/.test(text) ? text : undefined;
      },
      90_000,
      'the imported guest to tick on its console',
    );
    // Its bootloader started the kernel (QEMU's direct boot gives no BOOT_IMAGE), from its disk.
    expect(console).toContain('BOOT_IMAGE=vmlinuz');
    const commandLine = readFileSync(`/proc/${guestPid(dir)}/cmdline`, 'utf8').split('\0');
    expect(commandLine).not.toContain('-kernel');
    expect(commandLine.join(' ')).toContain('-boot order=c');
  });

  it('refuses a qcow2 that names a backing file, and leaves nothing in the store', async () => {
    const p = fetchParams('/leaning.qcow2', unsafe, 'qcow2');
    const refused = await driver.execute('image.fetch', p, ctx).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DriverFailure);
    expect(refused).toMatchObject({ code: 'IMAGE_UNSAFE', retryable: false });
    expect(existsSync(join(store, p.image))).toBe(false);
    expect(readdirSync(join(store, '.incoming'))).toEqual([]);
  });
});

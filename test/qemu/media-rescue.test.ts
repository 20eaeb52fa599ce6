import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultImageStore } from '../../agent/drivers/qemu/artifacts/image-store.js';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { guestPid } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import { eventually } from '../support/eventually.js';
import { type QemuHost, qemuHosts, ticksPast } from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * ISOs and rescue mode on a real guest, through the Client API: the hypervisor fetches the busybox
 * image's bootable `boot.iso` from a server of the test's own, puts it in the guest's drive, boots
 * the guest from it (the guest says so, and its count goes on from its disk); rescue mode starts
 * the image's rescue system with the disk attached (the count stops), and leaving it boots the
 * guest's own system again.
 */
const BOOT_ISO = join(defaultImageStore(), 'busybox', 'boot.iso');
const missing =
  qemuGuestsMissing() ?? (existsSync(BOOT_ISO) ? undefined : `no ${BOOT_ISO} (scripts/images/busybox.sh)`);
if (missing) console.warn(`test/qemu/media-rescue skipped: ${missing}`);

describe.runIf(!missing)('ISOs and rescue mode on a QEMU guest', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let server: Server;
  let isoUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) =>
      req.url === '/boot.iso' ? res.end(readFileSync(BOOT_ISO)) : res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    isoUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/boot.iso`;
    env = await startStack({
      agents: true,
      config: {
        ISO_ALLOW_HTTP: 'true',
        ISO_ALLOWED_NETWORKS: '127.0.0.0/8',
        // Heartbeats, and with them the agents' inventories, every 2 s: what a boot did reaches the panel.
        HYPERVISOR_UNREACHABLE_AFTER_MS: '6000',
      },
    });
    hosts = qemuHosts(env);
  });
  afterAll(async () => {
    hosts?.killGuests();
    await env?.close();
    server?.close();
  });

  const client = (method: string, path: string, body?: unknown) =>
    env.client.call(method, `/api/client/cloud${path}`, body);
  const operation = async (instanceId: string, path: string, body?: unknown) => {
    const res = await client('POST', `/${instanceId}${path}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await env.operationResult(instanceId);
  };
  /** What the guest's CD-ROM drive holds, as its QEMU says. */
  const drive = async (host: QemuHost, instanceId: string) => {
    const qmp = join(host.state().instances[instanceId]!.dir, 'qmp.sock');
    const blocks = await Qmp.with(qmp, (q) =>
      q.execute<{ device: string; inserted?: { file: string } }[]>('query-block'),
    );
    return blocks.find((b) => b.device === 'cd0')?.inserted?.file ?? null;
  };
  const count = (text: string, line: string) => text.split(line).length - 1;
  /**
   * What the guest's QEMU was started to boot, read from its command line: the image's kernel with
   * the disk (`disk`), or the BIOS from the CD-ROM drive (`cdrom`).
   */
  const bootedFrom = (host: QemuHost, instanceId: string) => {
    const pid = guestPid(host.state().instances[instanceId]!.dir);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (args.includes('order=d')) return 'cdrom';
    return args.includes('-kernel') ? 'disk' : 'unknown';
  };

  it('fetches an ISO, mounts and ejects it under the running guest, boots the guest from it; then rescue mode and back', async () => {
    const location = await seed.location(env.db);
    const host = await hosts.host(location.id);
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 2);
    // Its boot order, read-only, is the order the hypervisor boots it in: its disk first.
    const shown = await client('GET', `/${instance.id}`);
    expect(shown.body.attributes.boot_order).toEqual(['disk', 'cdrom']);
    expect(bootedFrom(host, instance.id)).toBe('disk');

    const added = await client('POST', `/${instance.id}/media/iso`, { name: 'installer', url: isoUrl });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const iso = await eventually(
      async () => {
        const list = (await client('GET', `/${instance.id}/media/iso`)).body.data;
        const found = list[0]?.attributes;
        return found?.state === 'available' ? found : undefined;
      },
      60_000,
      'the ISO fetched',
    );
    expect(iso.size_mb).toBeGreaterThan(1);

    await operation(instance.id, '/media/iso/mount', { iso: iso.uuid });
    expect(await drive(host, instance.id)).toMatch(new RegExp(`${iso.uuid}\\.iso$`));
    await operation(instance.id, '/media/iso/unmount');
    expect(await drive(host, instance.id)).toBe(null);

    // A plan change's dry run, as an administrator asks it, for a memory and a vCPU growth.
    const size = await env.db
      .selectFrom('instances')
      .select(['cpu_cores', 'memory_mb'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    const dryRun = async (body: Record<string, number>) =>
      (
        await env.admin.call('POST', `/api/application/cloudsvc/instances/${instance.id}/resize`, {
          ...body,
          dry_run: true,
        })
      ).body.attributes;
    const moreMemory = { memory_mb: size.memory_mb + 128 };
    expect(await dryRun(moreMemory)).toMatchObject({ mode: 'hot', reasons: [] });

    const before = Math.max(...host.ticks(instance.id));
    await operation(instance.id, '/media/iso/boot', { iso: iso.uuid });
    await eventually(
      async () => (count(host.console(instance.id), 'guest: started from the iso') === 1 ? true : undefined),
      90_000,
      'the guest started from the ISO',
    );
    await ticksPast(host, instance.id, before + 1, 90_000);
    expect(bootedFrom(host, instance.id)).toBe('cdrom');
    expect(await drive(host, instance.id)).toMatch(new RegExp(`${iso.uuid}\\.iso$`));
    // Booted from its CD-ROM the guest's QEMU has no memory room: its hypervisor says so, and the dry
    // run reads it (memory needs a reboot; a vCPU is still hot), as the hypervisor would refuse it.
    const cold = await eventually(
      async () => {
        const verdict = await dryRun(moreMemory);
        return verdict.mode === 'cold' ? verdict : undefined;
      },
      30_000,
      'the dry run to say a memory growth is cold',
    );
    expect(cold.reasons).toEqual([`more than ${size.memory_mb} MB of memory`]);
    expect(await dryRun({ cpu_cores: size.cpu_cores + 1 })).toMatchObject({ mode: 'hot' });
    await operation(instance.id, '/media/iso/unmount');

    // Rescue mode: the rescue system, the disk attached; the guest's own ticker does not run.
    await operation(instance.id, '/rescue/enter');
    await eventually(
      async () => (host.console(instance.id).includes('guest: rescue, disk at /disk') ? true : undefined),
      60_000,
      'the rescue system',
    );
    const disks = await askGuest(
      host.state().instances[instance.id]!.dir,
      { verb: 'disks', user: '-', argument: '-' },
      { timeoutMs: 60_000 },
    );
    expect(disks.detail).toMatch(/(^|,)vda=/);
    const inRescue = Math.max(...host.ticks(instance.id));
    await new Promise((r) => setTimeout(r, 3000));
    expect(Math.max(...host.ticks(instance.id))).toBe(inRescue);
    expect((await client('POST', `/${instance.id}/power`, { action: 'stop' })).status).toBe(409);

    const booted = count(host.console(instance.id), 'guest: booted');
    await operation(instance.id, '/rescue/exit');
    await ticksPast(host, instance.id, inRescue + 1, 60_000);
    expect(count(host.console(instance.id), 'guest: booted')).toBe(booted + 1);
    expect(bootedFrom(host, instance.id)).toBe('disk');
    expect(count(host.console(instance.id), 'guest: started from the iso')).toBe(1);
  }, 300_000);
});

import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import type { TaskContext } from '../../agent/drivers/driver.js';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { guestFiles, runStatus } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { transportIdentity } from '../../domain/migrations/transport.js';
import { eventually } from '../support/eventually.js';
import { channelAnswer, keyed, testTransportKey } from '../support/move-transport.js';
import { createParams, qemuAccelerator, SMALL_GUEST, stopDrivers } from '../support/qemu-hosts.js';

/**
 * Every port a live move opens between two hypervisors takes only TLS under the move's key, on
 * real guests: with the target's guest waiting, a plain TCP client to its memory port is dropped,
 * `qemu-img` over plain NBD and NBD under another key are refused, a source QEMU with another key
 * fails the handshake, and plain HTTP, TLS without a key and TLS under another key get nothing from
 * the source's channel; the target goes on waiting through all of it, and then the move completes
 * (the guest's count goes on with no boot) and neither side keeps the key.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/transport skipped: ${missing}`);

describe.runIf(!missing)('a live move’s transport', () => {
  const dirs: string[] = [];
  const drivers: QemuDriver[] = [];
  afterAll(() => {
    stopDrivers(drivers);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qemu-transport-'));
    dirs.push(dir);
    const driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: dir,
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );
    drivers.push(driver);
    return { driver, dir };
  };

  const ticksIn = (dir: string) =>
    existsSync(guestFiles(dir).console)
      ? [...readFileSync(guestFiles(dir).console, 'utf8').matchAll(/^tick (\d+)$/gm)].map((m) => Number(m[1]))
      : [];

  /** Whether a plain TCP client that speaks first is dropped without an answer. */
  const plainTcp = (port: number) =>
    new Promise<{ received: number; closed: boolean }>((resolve) => {
      let received = 0;
      const socket = connect(port, '127.0.0.1', () => {
        // QEMU's migration stream begins so: a magic and a version.
        socket.write(Buffer.from('5145564d00000003', 'hex'));
      });
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.setTimeout(15_000, () => {
        socket.destroy();
        resolve({ received, closed: false });
      });
      socket.once('close', () => resolve({ received, closed: true }));
      socket.once('error', () => undefined);
    });

  /** `qemu-img info` of the target's NBD export: plain, or under a key file of `identity:key`. */
  const nbdInfo = (port: number, key?: { identity: string; key: string }) => {
    if (!key) return spawnSync('qemu-img', ['info', `nbd://127.0.0.1:${port}/root`], { encoding: 'utf8' });
    const dir = mkdtempSync(join(tmpdir(), 'qemu-transport-key-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'keys.psk'), `${key.identity}:${key.key}\n`, { mode: 0o600 });
    return spawnSync(
      'qemu-img',
      [
        'info',
        '--object',
        `tls-creds-psk,id=tls0,endpoint=client,dir=${dir},username=${key.identity}`,
        '--image-opts',
        `driver=nbd,host=127.0.0.1,port=${port},export=root,tls-creds=tls0`,
      ],
      { encoding: 'utf8' },
    );
  };

  it('refuses plain and wrongly-keyed clients on the memory, NBD and channel ports, then moves the guest', async () => {
    const source = await start();
    const target = await start();
    const instanceId = randomUUID();
    const migrationId = randomUUID();
    const ids = { migration_id: migrationId, instance_id: instanceId };
    const key = testTransportKey();
    const wrongKey = testTransportKey();
    let endpoint = '';
    const ctx: TaskContext = {
      signal: new AbortController().signal,
      progress: () => undefined,
      redeemTransfer: async () => ({ migration_uuid: migrationId, disk: 'root', endpoint }),
    };
    const run = (driver: QemuDriver, type: string, params: Record<string, unknown>) =>
      driver.execute(type as AgentTaskType, params, ctx);

    await run(source.driver, 'instance.create', createParams(instanceId));
    const sourceDir = source.driver.guestDir(instanceId)!;
    await eventually(() => ticksIn(sourceDir).length >= 2, 60_000, 'the guest ticking');
    await run(target.driver, 'migration.prepare_target', {
      ...ids,
      hostname: 'guest.example.test',
      ...SMALL_GUEST,
    });
    ({ endpoint } = (await run(source.driver, 'disk.export', { ...ids, disk: 'root', ...keyed(key) })) as {
      endpoint: string;
    });
    await run(target.driver, 'disk.transfer', { ...ids, disk: 'root', transfer_token: 't', ...keyed(key) });
    await run(target.driver, 'disk.verify', { ...ids, disk: 'root' });
    await run(target.driver, 'network.prepare', { ...ids, ipv4: null, ipv6: null });
    await run(target.driver, 'migration.define_target', { ...ids, final_sync: false });
    const incoming = target.driver.snapshot().incoming[migrationId]!;
    const { migration_port, nbd_port } = incoming.listening!;
    const waiting = () => runStatus(incoming.dir);
    expect(await waiting()).toBe('inmigrate');
    expect(source.driver.snapshot().exports[migrationId]?.target).toEqual(incoming.listening);

    // The memory port: a plain client is dropped unanswered; the guest goes on waiting.
    expect(await plainTcp(migration_port)).toEqual({ received: 0, closed: true });
    expect(await waiting()).toBe('inmigrate');

    // The NBD port: plain NBD and NBD under another key are refused; under the move's key it opens.
    const plain = nbdInfo(nbd_port);
    expect(plain.status).not.toBe(0);
    expect(plain.stderr).toMatch(/TLS negotiation required/);
    const identity = transportIdentity(migrationId);
    const wrong = nbdInfo(nbd_port, { identity, key: wrongKey });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toMatch(/TLS|handshake/i);
    expect(nbdInfo(nbd_port, { identity: transportIdentity(randomUUID()), key }).status).not.toBe(0);
    const right = nbdInfo(nbd_port, { identity, key });
    expect(right.stderr).toBe('');
    expect(right.status).toBe(0);

    // A source QEMU holding another key: its memory stream fails at the handshake; the target waits on.
    const keyDir = join(source.dir, 'wrong-key');
    mkdirSync(keyDir, { mode: 0o700 });
    writeFileSync(join(keyDir, 'keys.psk'), `${identity}:${wrongKey}\n`, { mode: 0o600 });
    const refused = await Qmp.with(guestFiles(sourceDir).qmp, async (qmp) => {
      await qmp.execute('object-add', {
        'qom-type': 'tls-creds-psk',
        id: 'tls-wrong',
        dir: keyDir,
        endpoint: 'client',
        username: identity,
      });
      await qmp.execute('migrate-set-parameters', { 'tls-creds': 'tls-wrong' });
      await qmp.execute('migrate', { uri: `tcp:127.0.0.1:${migration_port}` });
      const failed = await eventually(
        async () => {
          const info = await qmp.execute<{ status: string; 'error-desc'?: string }>('query-migrate');
          return info.status === 'failed' ? info : undefined;
        },
        30_000,
        'the wrongly-keyed migration failing',
      );
      await qmp.execute('migrate-set-parameters', { 'tls-creds': '' });
      await qmp.execute('object-del', { id: 'tls-wrong' });
      return failed;
    });
    expect(refused['error-desc']).toMatch(/TLS/);
    expect(await waiting()).toBe('inmigrate');
    expect(await runStatus(sourceDir)).toBe('running');

    // The channel: plain HTTP, TLS without a key and TLS under another key get no answer at all.
    for (const client of ['plain', 'no-key', { migrationId, key: wrongKey }] as const)
      for (const path of ['disk', 'setup', 'password'])
        expect(
          await channelAnswer(`${endpoint}/${path}`, client),
          `${path} ${JSON.stringify(client)}`,
        ).toHaveProperty('error');
    // The key QEMU listens under, in the target agent's own file.
    const keyFile = join(target.dir, 'transport', migrationId, 'keys.psk');
    expect(readFileSync(keyFile, 'utf8')).toBe(`${identity}:${key}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(target.dir, 'transport', migrationId)).mode & 0o777).toBe(0o700);

    // And the move itself, under the key, through all of that: the count goes on with no boot.
    const live = (await run(source.driver, 'migration.live', {
      ...ids,
      target_hypervisor_id: randomUUID(),
    })) as { downtime_ms: number };
    expect(live.downtime_ms).toBeGreaterThanOrEqual(0);
    const last = Math.max(...ticksIn(sourceDir));
    expect(await run(target.driver, 'migration.start_target', { ...ids, start: true })).toEqual({
      power_state: 'running',
    });
    const targetDir = target.driver.guestDir(instanceId)!;
    await eventually(() => ticksIn(targetDir).some((t) => t > last + 1), 60_000, 'ticks on the target');
    expect(ticksIn(targetDir).find((t) => t > last)).toBe(last + 1);
    expect(readFileSync(guestFiles(targetDir).console, 'utf8')).not.toContain('guest: booted');

    // Neither side keeps the key: no key file, nothing in its state, and the channel refuses it.
    for (const side of [source, target]) {
      expect(existsSync(join(side.dir, 'transport', migrationId))).toBe(false);
      expect(JSON.stringify(side.driver.snapshot())).not.toContain(key);
    }
    expect(await channelAnswer(`${endpoint}/disk`, { migrationId, key })).toEqual({ error: 'EPROTO' });
  }, 300_000);
});

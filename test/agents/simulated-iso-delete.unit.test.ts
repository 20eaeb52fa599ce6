import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { SimulatedDriver } from '../../agent/drivers/simulated/driver.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';

/**
 * The simulated hypervisor's `iso.delete`: idempotent as the driver contract asks (a task offered
 * again leaves the hypervisor as one run did), refused for the ISO in the drive. The ISO is
 * fetched for real from a server of the test's own on loopback.
 */
let server: Server;
let url: string;
const dirs: string[] = [];
beforeAll(async () => {
  server = createServer((_req, res) => res.end('an iso'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.iso`;
});
afterAll(() => {
  server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const noPanel = () => Promise.reject(new Error('no panel in this test'));
const idle = { signal: new AbortController().signal, progress: () => {}, redeemTransfer: noPanel };

async function outcome(driver: SimulatedDriver, type: AgentTaskType, params: object) {
  try {
    return await driver.execute(type, params, idle);
  } catch (error) {
    const failure = error as { code: string; retryable: boolean };
    return { failed: failure.code, retryable: failure.retryable };
  }
}

/** A simulated host with a running instance whose library holds one fetched ISO. */
async function hostWithIso() {
  const stateDir = mkdtempSync(join(tmpdir(), 'simulated-iso-delete-'));
  dirs.push(stateDir);
  const driver = new SimulatedDriver(
    loadAgentConfig({
      AGENT_PANEL_URL: 'http://127.0.0.1:1',
      AGENT_STATE_DIR: stateDir,
      AGENT_SIM_LATENCY_MS: '{"default":0}',
    }),
  );
  const instanceId = randomUUID();
  const isoId = randomUUID();
  await driver.execute(
    'instance.create',
    {
      instance_id: instanceId,
      hostname: 'web-1.example.test',
      timezone: 'UTC',
      root_password: 'correct horse battery staple',
      ssh_keys: [],
      cpu_cores: 1,
      memory_mb: 512,
      disk_mb: 1024,
      image: 'debian-12',
      boot_order: ['disk'],
      ipv4: null,
      ipv6: null,
      start: true,
    },
    idle,
  );
  await driver.execute(
    'iso.fetch',
    { instance_id: instanceId, iso_id: isoId, url, max_mb: 16, allowed_networks: ['127.0.0.0/8'] },
    idle,
  );
  const file = join(stateDir, 'isos', instanceId, `${isoId}.iso`);
  const deletes = () => driver.snapshot().applied.filter((a) => a.type === 'iso.delete');
  return { driver, instanceId, isoId, file, deletes, params: { instance_id: instanceId, iso_id: isoId } };
}

describe('the simulated hypervisor’s iso.delete', () => {
  it('removes the fetched file and the library entry once; run again, it finds nothing and changes nothing', async () => {
    const host = await hostWithIso();
    expect(existsSync(host.file)).toBe(true);
    expect(await outcome(host.driver, 'iso.delete', host.params)).toEqual({ deleted: true });
    expect(existsSync(host.file)).toBe(false);
    expect(host.driver.snapshot().instances[host.instanceId]!.isos).toEqual({});
    expect(await outcome(host.driver, 'iso.delete', host.params)).toEqual({ deleted: false });
    expect(host.deletes()).toHaveLength(1);
    // The ISO is gone from the drive's choices too.
    expect(await outcome(host.driver, 'iso.mount', host.params)).toEqual({
      failed: 'ISO_NOT_FOUND',
      retryable: false,
    });
  });

  it('removes what a fetch cut off by a crash left beside the file', async () => {
    const host = await hostWithIso();
    writeFileSync(`${host.file}.partial`, 'half an iso');
    expect(await outcome(host.driver, 'iso.delete', host.params)).toEqual({ deleted: true });
    expect(existsSync(`${host.file}.partial`)).toBe(false);
  });

  it('refuses the ISO in the drive, for good, twice alike; ejected, it goes', async () => {
    const host = await hostWithIso();
    await host.driver.execute('iso.mount', host.params, idle);
    for (let i = 0; i < 2; i++)
      expect(await outcome(host.driver, 'iso.delete', host.params)).toEqual({
        failed: 'ISO_MOUNTED',
        retryable: false,
      });
    expect(existsSync(host.file)).toBe(true);
    expect(host.deletes()).toHaveLength(0);
    await host.driver.execute('iso.mount', { ...host.params, iso_id: null }, idle);
    expect(await outcome(host.driver, 'iso.delete', host.params)).toEqual({ deleted: true });
  });

  it('is done once the instance is gone from the host (its ISOs went with it)', async () => {
    const host = await hostWithIso();
    await host.driver.execute('instance.delete', { instance_id: host.instanceId }, idle);
    expect(existsSync(host.file)).toBe(false);
    expect(await outcome(host.driver, 'iso.delete', host.params)).toEqual({ deleted: false });
    expect(host.deletes()).toHaveLength(0);
  });
});

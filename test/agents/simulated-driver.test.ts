import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { SimulatedDriver } from '../../agent/drivers/simulated/driver.js';
import { simulatedFaultsPath } from '../../agent/drivers/simulated/state.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';

/** Faults armed while the simulated hypervisor runs, counted call by call. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function driverIn(stateDir: string, env: Record<string, string> = {}) {
  const config = loadAgentConfig({
    AGENT_PANEL_URL: 'http://127.0.0.1:1',
    AGENT_STATE_DIR: stateDir,
    AGENT_SIM_LATENCY_MS: '{"default":0}',
    ...env,
  });
  return new SimulatedDriver(config);
}

function newDriver(env: Record<string, string> = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), 'simulated-'));
  dirs.push(stateDir);
  return { stateDir, driver: driverIn(stateDir, env) };
}

/** These tasks need no panel: a redemption would be a test bug. */
const noPanel = () => Promise.reject(new Error('no panel in this test'));
const idle = { signal: new AbortController().signal, progress: () => {}, redeemTransfer: noPanel };

/** The outcome of one call: `ok`, or the failure code and whether it may be retried. */
async function call(driver: SimulatedDriver, type: AgentTaskType = 'hypervisor.probe', params: object = {}) {
  try {
    await driver.execute(type, params, idle);
    return 'ok';
  } catch (error) {
    const failure = error as { code: string; retryable: boolean };
    return `${failure.code}${failure.retryable ? '' : ' (final)'}`;
  }
}

const createParams = () => ({
  instance_id: randomUUID(),
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
});

describe('faults armed at run time', () => {
  it('fire on exactly the nth call of their type from the arming, whatever runs between', async () => {
    const { driver } = newDriver();
    expect(await call(driver)).toBe('ok'); // calls before the arming do not count
    driver.armFault('hypervisor.probe', { mode: 'fail', nth: 3 });
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(await call(driver));
      // Another type's calls in between do not count.
      expect(await call(driver, 'instance.create', createParams())).toBe('ok');
    }
    expect(outcomes).toEqual(['ok', 'ok', 'SIMULATED_FAILURE', 'ok', 'ok']);
  });

  it('hit the next `times` calls, then none', async () => {
    const { driver } = newDriver();
    driver.armFault('hypervisor.probe', { mode: 'fail-permanently', times: 2 });
    const outcomes = [await call(driver), await call(driver), await call(driver)];
    expect(outcomes).toEqual(['SIMULATED_FAILURE (final)', 'SIMULATED_FAILURE (final)', 'ok']);
  });

  it('of one type fire in the order they were armed', async () => {
    const { driver } = newDriver();
    driver.armFault('hypervisor.probe', { mode: 'fail' });
    driver.armFault('hypervisor.probe', { mode: 'fail-permanently' });
    const outcomes = [await call(driver), await call(driver), await call(driver)];
    expect(outcomes).toEqual(['SIMULATED_FAILURE', 'SIMULATED_FAILURE (final)', 'ok']);
  });

  it('come before the configured faults, which still fire as AGENT_SIM_FAULTS says', async () => {
    const { driver } = newDriver({
      AGENT_SIM_FAULTS: JSON.stringify({ 'hypervisor.probe': { mode: 'fail-permanently', times: 1 } }),
    });
    driver.armFault('hypervisor.probe', { mode: 'fail' });
    const outcomes = [await call(driver), await call(driver), await call(driver)];
    expect(outcomes).toEqual(['SIMULATED_FAILURE', 'SIMULATED_FAILURE (final)', 'ok']);
  });

  it('hang until the task is stopped', async () => {
    const { driver } = newDriver();
    driver.armFault('hypervisor.probe', { mode: 'hang' });
    const stop = new AbortController();
    const running = driver.execute(
      'hypervisor.probe',
      {},
      { signal: stop.signal, progress: () => {}, redeemTransfer: noPanel },
    );
    const early = await Promise.race([running.then(() => 'finished'), sleep(300).then(() => 'running')]);
    expect(early).toBe('running');
    stop.abort();
    await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await call(driver)).toBe('ok');
  });

  it('refuse a call number or count that is not a positive integer', () => {
    const { driver } = newDriver();
    expect(() => driver.armFault('hypervisor.probe', { mode: 'fail', nth: 0 })).toThrow();
    expect(() => driver.armFault('hypervisor.probe', { mode: 'fail', times: 1.5 })).toThrow();
  });
});

describe('the faults file', () => {
  const writeFaults = (stateDir: string, entries: unknown) =>
    writeFileSync(simulatedFaultsPath(stateDir), JSON.stringify(entries));

  it('arms each entry once, for the next task of its type, and a restart does not arm it again', async () => {
    const { stateDir, driver } = newDriver();
    expect(await call(driver)).toBe('ok');
    writeFaults(stateDir, [{ id: 'a', type: 'hypervisor.probe', mode: 'fail' }]);
    expect([await call(driver), await call(driver)]).toEqual(['SIMULATED_FAILURE', 'ok']);

    const restarted = driverIn(stateDir);
    expect(await call(restarted)).toBe('ok');
    writeFaults(stateDir, [
      { id: 'a', type: 'hypervisor.probe', mode: 'fail' },
      { id: 'b', type: 'hypervisor.probe', mode: 'fail-permanently', nth: 2 },
    ]);
    const outcomes = [await call(restarted), await call(restarted), await call(restarted)];
    expect(outcomes).toEqual(['ok', 'SIMULATED_FAILURE (final)', 'ok']);
  });

  it('that cannot be read fails every task until it is fixed, rather than run them unfaulted', async () => {
    const { stateDir, driver } = newDriver();
    writeFaults(stateDir, [{ id: 'a', type: 'hypervisor.probe', mode: 'explode' }]);
    expect(await call(driver)).toBe('INVALID_FAULTS_FILE');
    writeFileSync(simulatedFaultsPath(stateDir), '[{"id":');
    expect(await call(driver)).toBe('INVALID_FAULTS_FILE');
    writeFaults(stateDir, []);
    expect(await call(driver)).toBe('ok');
  });
});

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('the simulated hypervisor’s capacity', () => {
  it('holds room for a guest arriving by migration from its preparation, once per migration', async () => {
    const { driver } = newDriver({
      AGENT_CAPACITY: JSON.stringify({ cpu_cores: 4, memory_mb: 4096, disk_mb: 10_000 }),
    });
    const arriving = { cpu_cores: 2, memory_mb: 2048, disk_mb: 4096 };
    const prepare = (migrationId: string) => ({
      migration_id: migrationId,
      instance_id: randomUUID(),
      hostname: 'moving.example.test',
      ...arriving,
    });
    const first = randomUUID();
    expect(await call(driver, 'migration.prepare_target', prepare(first))).toBe('ok');
    expect(driver.freeCapacity()).toEqual({ cpu_cores: 2, memory_mb: 2048, disk_mb: 5904 });
    // The same preparation again holds no more room; a second arrival takes what is left.
    expect(await call(driver, 'migration.prepare_target', prepare(first))).toBe('ok');
    expect(driver.freeCapacity()).toEqual({ cpu_cores: 2, memory_mb: 2048, disk_mb: 5904 });
    expect(await call(driver, 'migration.prepare_target', prepare(randomUUID()))).toBe('ok');
    expect(driver.freeCapacity()).toEqual({ cpu_cores: 0, memory_mb: 0, disk_mb: 1808 });
    expect(await call(driver, 'migration.prepare_target', prepare(randomUUID()))).toBe(
      'INSUFFICIENT_CAPACITY (final)',
    );
    expect(await call(driver, 'instance.create', createParams())).toBe('INSUFFICIENT_CAPACITY (final)');
  });
});

describe('a storage move’s cleanup on the simulated hypervisor', () => {
  it('finds nothing to remove, twice, once the instance left the host (its migration took the copies)', async () => {
    const { driver } = newDriver();
    const params = {
      move_id: randomUUID(),
      instance_id: randomUUID(),
      disk: 'root',
      from_backend: 'local',
    };
    for (let i = 0; i < 2; i++)
      expect(await driver.execute('storage.cleanup', params, idle)).toEqual({ removed: false });
  });
});

describe('a plan change on the simulated hypervisor (instance.resize)', () => {
  const resize = (instance_id: string, params: object) =>
    ({ instance_id, ...params }) as Record<string, unknown>;

  it('creates a guest with the room it was asked for and answers it; grows it hot within it, once', async () => {
    const { driver } = newDriver();
    const create = { ...createParams(), ceiling: { cpu_cores: 4, memory_mb: 512 + 4 * 128 } };
    expect(await driver.execute('instance.create', create, idle)).toMatchObject({
      power_state: 'running',
      ceiling: create.ceiling,
    });
    const boots = () => driver.snapshot().instances[create.instance_id]!.boots ?? 0;
    const before = boots();
    const grow = resize(create.instance_id, { cpu_cores: 2, memory_mb: 768, mode: 'hot' });
    for (let i = 0; i < 2; i++)
      expect(await driver.execute('instance.resize', grow, idle)).toEqual({
        power_state: 'running',
        cpu_cores: 2,
        memory_mb: 768,
        applied: 'hot',
        ceiling: create.ceiling,
      });
    expect(boots()).toBe(before);
    expect(driver.snapshot().applied.filter((a) => a.type === 'instance.resize')).toHaveLength(1);
  });

  it('refuses hot what a running guest cannot take, changing nothing; cold boots it once with its new room', async () => {
    const { driver } = newDriver();
    const create = { ...createParams(), ceiling: { cpu_cores: 2, memory_mb: 1024 } };
    await driver.execute('instance.create', create, idle);
    for (const params of [
      { cpu_cores: 4, memory_mb: 512 },
      { cpu_cores: 1, memory_mb: 512 + 100 },
      { cpu_cores: 1, memory_mb: 256 },
    ])
      expect(
        await call(driver, 'instance.resize', resize(create.instance_id, { ...params, mode: 'hot' })),
      ).toBe('HOT_RESIZE_REFUSED (final)');
    expect(driver.snapshot().instances[create.instance_id]).toMatchObject({ cpu_cores: 1, memory_mb: 512 });

    const boots = driver.snapshot().instances[create.instance_id]!.boots ?? 0;
    const ceiling = { cpu_cores: 8, memory_mb: 4096 };
    const cold = resize(create.instance_id, { cpu_cores: 4, memory_mb: 256, mode: 'cold', ceiling });
    expect(await driver.execute('instance.resize', cold, idle)).toMatchObject({
      power_state: 'running',
      cpu_cores: 4,
      memory_mb: 256,
      applied: 'cold',
      ceiling,
    });
    await driver.execute('instance.resize', cold, idle);
    expect(driver.snapshot().instances[create.instance_id]!.boots).toBe(boots + 1);
  });
});

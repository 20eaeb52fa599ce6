import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { findHypervisor, setHypervisorStatus } from '../../db/repositories/hypervisors/hypervisors.js';
import { setMaintenance } from '../../services/hypervisors/maintenance.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { operatorCli, settingsOf } from './operator-cli.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', EVACUATION_CHECK_EVERY_MS: '300' },
  });
});
afterAll(() => env.close());

const cli = (args: string[], options: { answer?: string; settings?: Record<string, string> } = {}) =>
  operatorCli(args, { ...options, settings: options.settings ?? settingsOf(env.config) });

async function drainable(instances: number) {
  const { id: locationId } = await seed.location(env.db);
  const source = await env.hypervisorWithAgent({ AGENT_SIM_TRANSFER_MS_PER_GB: '25' }, { locationId });
  const target = await env.hypervisorWithAgent({ AGENT_SIM_TRANSFER_MS_PER_GB: '25' }, { locationId });
  const guests = [];
  for (let i = 0; i < instances; i++) guests.push(await env.provisionedInstance(source.hypervisor));
  return { source, target, guests };
}

describe('cloudsvc:evacuation:plan and start --dry-run', () => {
  it('run the real plan, exit 1 while an instance cannot move, and change nothing in the database', async () => {
    const database = await isolatedDatabase();
    const own = createDatabase({ url: database.url, poolSize: 1, namedStatements: false });
    try {
      const db = own.db;
      const location = await seed.location(db);
      const source = await seed.hypervisor(db, location.id);
      const target = await seed.hypervisor(db, location.id);
      for (const h of [source, target]) await setHypervisorStatus(db, h.id, 'online');
      const owner = await seed.user(db);
      const movable = await seed.instance(db, {
        userId: owner.id,
        locationId: location.id,
        hypervisorId: source.id,
      });
      const bound = await seed.instance(db, {
        userId: owner.id,
        locationId: location.id,
        hypervisorId: source.id,
        name: 'bound',
      });
      await db
        .updateTable('instances')
        .set({ host_requirements: JSON.stringify(['numa_pinning']) })
        .where('id', '=', bound.id)
        .execute();
      const settings = settingsOf(env.config, { DATABASE_URL: database.url });
      const before = await tableDigest(db);

      const text = await cli(['cloudsvc:evacuation:plan', source.id], { settings });
      expect(text.code, text.stderr).toBe(1);
      expect(text.stdout).toContain(
        `Evacuation plan of ${source.name} (${source.id}), mode AUTO: 1 of 2 instances can move`,
      );
      expect(text.stdout).toContain(`1. web-1 (${movable.id}) → ${target.name}, live`);
      expect(text.stdout).toContain('HOST_BOUND_NUMA');
      const json = await cli(['cloudsvc:evacuation:plan', source.id, '--mode=cold', '--json'], { settings });
      expect(json.json().attributes).toMatchObject({ mode: 'COLD', moves: [{ strategy: 'cold' }] });

      const dry = await cli(['cloudsvc:evacuation:start', source.id, '--mode=AUTO', '--dry-run'], {
        settings,
      });
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain('Dry run: nothing was started or changed.');
      expect(await tableDigest(db)).toEqual(before);
    } finally {
      await own.close();
      await database.drop();
    }
  });

  it('refuse bad usage with exit 2, before anything is read or changed', async () => {
    const { source } = await drainable(0);
    for (const args of [
      ['cloudsvc:evacuation:plan'],
      ['cloudsvc:evacuation:plan', 'hv-1'],
      ['cloudsvc:evacuation:start', source.hypervisor.id],
      ['cloudsvc:evacuation:start', source.hypervisor.id, '--mode=AUTO', '--max-parallel=0'],
      ['cloudsvc:evacuation:start', source.hypervisor.id, '--mode=AUTO', '--on-failure=ignore'],
      ['cloudsvc:evacuation:start', source.hypervisor.id, '--mode=AUTO', '--max-downtime-ms=9001'],
      ['cloudsvc:evacuation:start', source.hypervisor.id, '--mode=AUTO', '--post-copy=sometimes'],
      // Not a terminal, and no --force: it cannot be confirmed.
      ['cloudsvc:evacuation:start', source.hypervisor.id, '--mode=AUTO'],
    ]) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
    }
    expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(false);
  });
});

describe('cloudsvc:evacuation:start, status, pause, resume and cancel', () => {
  it('starts only on "yes", drains the node showing its progress, and reports it; the controls refuse once it ended', async () => {
    const { source, target, guests } = await drainable(2);
    const declined = await cli(['cloudsvc:evacuation:start', source.hypervisor.id, '--mode=AUTO'], {
      answer: 'no',
    });
    expect(declined.code).toBe(1);
    expect(declined.stdout).toContain('Not started.');
    expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(false);

    const run = await cli(
      [
        'cloudsvc:evacuation:start',
        source.hypervisor.id,
        '--mode=AUTO',
        '--max-parallel=1',
        '--reason=disk swap',
        '--max-downtime-ms=90',
        '--auto-converge=on',
      ],
      { answer: 'yes' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `Put ${source.hypervisor.name} in maintenance and move 2 of its 2 instances away?`,
    );
    expect(run.stdout).toMatch(/completed: 2 instances, 2 moved/);
    const evacuationId = run.stdout.match(/Evacuation ([0-9a-f-]{36}) started/)![1]!;
    for (const guest of guests)
      expect(run.stdout).toContain(`${guest.name} (${guest.id})  moved → ${target.hypervisor.name}`);

    const status = await cli(['cloudsvc:evacuation:status', evacuationId, '--json']);
    expect(status.json().attributes).toMatchObject({
      state: 'completed',
      reason: 'disk swap',
      requested_by: expect.stringMatching(/^system:cli:/),
      progress: { moved: 2, total: 2 },
    });
    expect(status.json().attributes.policy.convergence).toMatchObject({
      max_downtime_ms: 90,
      auto_converge: { enabled: true },
    });
    expect(run.stdout).toContain('  moves     downtime ≤ 90 ms, ');
    for (const control of ['pause', 'resume', 'cancel']) {
      const dry = await cli([`cloudsvc:evacuation:${control}`, evacuationId, '--dry-run']);
      expect(dry.code).toBe(1);
      expect(dry.stdout).toContain('EVACUATION_FINISHED');
      const refused = await cli([`cloudsvc:evacuation:${control}`, evacuationId]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('EVACUATION_FINISHED');
    }
  });

  it('pauses, resumes and cancels a running evacuation through the same service as the API', async () => {
    const { source, target } = await drainable(3);
    target.agent.armFault('disk.transfer', { mode: 'hang' });
    const started = await cli([
      'cloudsvc:evacuation:start',
      source.hypervisor.id,
      '--mode=AUTO',
      '--max-parallel=1',
      '--force',
      '--no-wait',
      '--json',
    ]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toContain('--force');
    const evacuationId = (started.json() as Body).attributes.uuid as string;
    const dry = await cli(['cloudsvc:evacuation:pause', evacuationId, '--dry-run']);
    expect([dry.code, dry.stdout.includes('pause is allowed')]).toEqual([0, true]);

    const paused = await cli(['cloudsvc:evacuation:pause', evacuationId, '--json']);
    expect(paused.json().attributes.state).toBe('paused');
    const resumed = await cli(['cloudsvc:evacuation:resume', evacuationId, '--json']);
    expect(resumed.json().attributes.state).toBe('running');
    await eventually(
      async () =>
        (await cli(['cloudsvc:evacuation:status', evacuationId, '--json'])).json().attributes.progress
          .migrating === 1,
      30_000,
      'a move under way',
    );
    const cancelled = await cli(['cloudsvc:evacuation:cancel', evacuationId, '--reason=not today', '--json']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    const done = await eventually(
      async () => {
        const body = (await cli(['cloudsvc:evacuation:status', evacuationId, '--json'])).json();
        return body.attributes.state === 'cancelled' ? body : undefined;
      },
      30_000,
      'cancelled',
    );
    expect(done.attributes.progress).toMatchObject({ cancelled: 3, total: 3 });
  });
});

describe('cloudsvc:evacuation:restore', () => {
  it('refuses while the node is in maintenance, then on "yes" brings the instances home with the evacuation’s policy', async () => {
    const { source, guests } = await drainable(2);
    const drained = await cli([
      'cloudsvc:evacuation:start',
      source.hypervisor.id,
      '--mode=AUTO',
      '--force',
      '--json',
    ]);
    expect(drained.code, drained.stderr).toBe(0);
    const evacuationId = (drained.json() as Body).attributes.uuid as string;
    for (const args of [
      ['cloudsvc:evacuation:restore'],
      ['cloudsvc:evacuation:restore', evacuationId, '--max-parallel=0', '--force'],
      ['cloudsvc:evacuation:restore', evacuationId, '--mode=FAST', '--force'],
      // Not a terminal, and no --force: it cannot be confirmed.
      ['cloudsvc:evacuation:restore', evacuationId],
    ]) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
    }
    const dry = await cli(['cloudsvc:evacuation:restore', evacuationId, '--dry-run']);
    expect([dry.code, dry.stdout]).toEqual([1, expect.stringContaining('HYPERVISOR_IN_MAINTENANCE')]);
    const early = await cli(['cloudsvc:evacuation:restore', evacuationId, '--force']);
    expect([early.code, early.stderr]).toEqual([1, expect.stringContaining('HYPERVISOR_IN_MAINTENANCE')]);

    await setMaintenance(env.deps, { hypervisorId: source.hypervisor.id, enabled: false });
    const allowed = await cli(['cloudsvc:evacuation:restore', evacuationId, '--dry-run', '--json']);
    expect([allowed.code, allowed.json()]).toEqual([0, { allowed: true, ok: true, instances: 2 }]);
    const declined = await cli(['cloudsvc:evacuation:restore', evacuationId], { answer: 'no' });
    expect([declined.code, declined.stdout]).toEqual([1, expect.stringContaining('Not started.')]);

    const run = await cli(['cloudsvc:evacuation:restore', evacuationId, '--max-parallel=1'], {
      answer: 'yes',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `Move 2 instances of evacuation ${evacuationId} back to ${source.hypervisor.name}?`,
    );
    expect(run.stdout).toMatch(/completed: 2 instances, 2 moved/);
    const restoreId = run.stdout.match(/Restore ([0-9a-f-]{36}) started/)![1]!;
    expect(run.stdout).toContain(
      `Restore ${restoreId} of evacuation ${evacuationId} to ${source.hypervisor.name}`,
    );
    for (const guest of guests) {
      expect(run.stdout).toContain(`${guest.name} (${guest.id})  moved → ${source.hypervisor.name}`);
      const place = await env.db
        .selectFrom('instances')
        .select('hypervisor_id')
        .where('id', '=', guest.id)
        .executeTakeFirstOrThrow();
      expect(place.hypervisor_id).toBe(source.hypervisor.id);
    }
    const status = await cli(['cloudsvc:evacuation:status', restoreId, '--json']);
    expect(status.json().attributes).toMatchObject({
      kind: 'restore',
      restores: evacuationId,
      state: 'completed',
      policy: { mode: 'AUTO', max_parallel: 1 },
      requested_by: expect.stringMatching(/^system:cli:/),
    });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { setHypervisorStatus, updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { listMigrations } from '../../db/repositories/moves/migration-lists.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { happyPath } from '../../domain/migrations/states.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { operatorCli, settingsOf } from './operator-cli.js';

const UI = 'http://127.0.0.1:8233';

let env: Stack;
let locationId: string;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', TEMPORAL_UI_URL: UI },
  });
  locationId = (await seed.location(env.db)).id;
});
afterAll(() => env.close());

/** One command line through the CLI's runner, with the server's settings unless the test gives others. */
const cli = (args: string[], options: { answer?: string; settings?: Record<string, string> } = {}) =>
  operatorCli(args, { ...options, settings: options.settings ?? settingsOf(env.config) });

async function pair() {
  const { hypervisor: source, agent: sourceAgent } = await env.hypervisorWithAgent({}, { locationId });
  const { hypervisor: target, agent: targetAgent } = await env.hypervisorWithAgent({}, { locationId });
  const instance = await env.provisionedInstance(source);
  return { source, target, sourceAgent, targetAgent, instance };
}

const migrationsOf = async (instanceId: string) =>
  (await listMigrations(env.db, { instanceId }, { page: 1, perPage: 10 })).records;

describe('cloudsvc:migration:preflight', () => {
  it('reports the verdict as text or JSON, exit 0 when a migration would be accepted, 1 when blocked', async () => {
    const { source, target, instance } = await pair();
    const text = await cli(['cloudsvc:migration:preflight', instance.id, `--target=${target.id}`]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Preflight of instance ${instance.id}, mode AUTO: ok`);
    expect(text.stdout).toContain(`target    ${target.name} (${target.id}), strategy live`);
    expect(text.stdout).toContain('SAME_IP_INTERRUPTION');

    const json = await cli(['cloudsvc:migration:preflight', instance.id, '--mode=cold', '--json']);
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      object: 'migration_preflight',
      attributes: { ok: true, mode: 'COLD', strategy: 'cold', source: { uuid: source.id } },
    });

    await updateHypervisor(env.db, target.id, { withheldCapabilities: ['live_migration'] });
    const blocked = await cli([
      'cloudsvc:migration:preflight',
      instance.id,
      `--target=${target.id}`,
      '--mode=LIVE_REQUIRED',
      '--json',
    ]);
    expect(blocked.code).toBe(1);
    expect(blocked.json().attributes.blockers.map((b: Body) => b.code)).toEqual(['LIVE_NOT_SUPPORTED']);
    expect(await migrationsOf(instance.id)).toEqual([]);
  });

  it('explains bad usage with exit code 2', async () => {
    for (const args of [
      [],
      ['not-a-uuid'],
      [randomUUID(), '--mode=FAST'],
      [randomUUID(), '--target=hv-1'],
      [randomUUID(), randomUUID()],
      [randomUUID(), '--colour'],
      [randomUUID(), '--max-downtime-ms=4'],
      [randomUUID(), '--bandwidth-mbps=fast'],
      [randomUUID(), '--auto-converge=yes'],
      [randomUUID(), '--auto-converge-initial=71'],
      [randomUUID(), '--post-copy=always'],
      [randomUUID(), '--progress-timeout=59'],
    ]) {
      const run = await cli(['cloudsvc:migration:preflight', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('usage: cloudsvc cloudsvc:migration:preflight');
    }
    const unknown = await cli(['cloudsvc:migration:preflight', randomUUID()]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('SVC-RES-404')]);
  });
});

describe('cloudsvc:migration:start', () => {
  it('refuses without a terminal unless --force (exit 2), and starts nothing when the operator says no (exit 1)', async () => {
    const { target, instance } = await pair();
    const args = ['cloudsvc:migration:start', instance.id, `--target=${target.id}`, '--mode=AUTO'];
    const noTerminal = await cli(args);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('stdin is not a terminal');
    expect(noTerminal.stderr).toContain('--force');

    const declined = await cli(args, { answer: 'no' });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain(`Migrate instance ${instance.id}`);
    expect(declined.stdout).toContain('Not started.');
    expect(await migrationsOf(instance.id)).toEqual([]);

    expect((await cli(['cloudsvc:migration:start', instance.id])).stderr).toContain('--mode must be one of');
  });

  it('confirmed on the terminal, shows each state live with its time and ends 0 once completed', async () => {
    const { target, targetAgent, instance } = await pair();
    const run = await cli(
      [
        'cloudsvc:migration:start',
        instance.id,
        `--target=${target.id}`,
        '--mode=AUTO',
        '--reason=kernel update',
      ],
      { answer: 'yes' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('warning');
    const [migration] = await migrationsOf(instance.id);
    expect(run.stdout).toContain(`Migration ${migration!.id} requested; workflow ${migration!.workflow_id}`);
    expect(run.stdout).toContain(`${UI}/namespaces/default/workflows/`);
    const shown = [...run.stdout.matchAll(/^ {2}(\S+Z) {2}([A-Z_]+)/gm)];
    expect(shown.every(([, at]) => !Number.isNaN(Date.parse(at!)))).toBe(true);
    // Watching stops at COMPLETED, or later if the short retention window has passed by then.
    const states = shown.map(([, , state]) => state);
    expect(states).toEqual(happyPath('live').slice(0, states.length));
    expect(states).toContain('COMPLETED');
    expect(run.stdout).toMatch(/Completed\. The source copy is kept until|Migration CLEANED_UP\./);
    expect(targetAgent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    await expect(findMigration(env.db, migration!.id)).resolves.toMatchObject({
      requested_by: expect.stringMatching(/^system:cli:/),
      reason: 'kernel update',
    });
  });

  it('with --force warns, and with --json prints the migration as the API shows it; the states go to stderr', async () => {
    const { target, instance } = await pair();
    const run = await cli([
      'cloudsvc:migration:start',
      instance.id,
      `--target=${target.id}`,
      '--mode=COLD',
      '--force',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('warning: --force: starting the migration without confirmation');
    expect(run.stderr).toContain('STARTING_TARGET');
    const body = run.json();
    expect(body).toMatchObject({
      object: 'migration',
      attributes: {
        instance_uuid: instance.id,
        mode: 'COLD',
        strategy: 'cold',
        point_of_no_return: 'STARTING_TARGET',
      },
    });
    expect(['COMPLETED', 'CLEANED_UP']).toContain(body.attributes.state);
  });

  it('moves an instance back at once, as the API does: the first move’s copy is kept until the move back commits', async () => {
    const { source, target, sourceAgent, instance } = await pair();
    // A day's retention, as in production: the move back may not wait for it.
    const settings = settingsOf(env.config, { MIGRATION_SOURCE_RETENTION_MS: '86400000' });
    const start = (to: string) =>
      cli(['cloudsvc:migration:start', instance.id, `--target=${to}`, '--mode=AUTO', '--force'], {
        settings,
      });
    const there = await start(target.id);
    expect(there.code, there.stderr).toBe(0);
    const [first] = await migrationsOf(instance.id);
    expect(sourceAgent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');

    const back = await start(source.id);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('RETAINED_COPY_REPLACED');
    expect(sourceAgent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    await eventually(
      async () => (await findMigration(env.db, first!.id))?.state === 'CLEANED_UP',
      20_000,
      'the first move’s copy removed after the move back committed',
    );
    expect(sourceAgent.hypervisor().outgoing?.[first!.id]).toBeUndefined();
  });

  it('with --no-wait returns at once, under the convergence policy given; status follows the migration', async () => {
    const { target, instance } = await pair();
    const run = await cli(
      [
        'cloudsvc:migration:start',
        instance.id,
        `--target=${target.id}`,
        '--mode=AUTO',
        '--no-wait',
        '--json',
        '--max-downtime-ms=40',
        '--bandwidth-mbps=none',
        '--auto-converge=on',
        '--auto-converge-step=15',
        '--post-copy=allow',
      ],
      { answer: 'yes' },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = run.json().attributes.uuid;
    expect(run.json().attributes.convergence).toEqual({
      max_downtime_ms: 40,
      bandwidth_mbps: null,
      auto_converge: { enabled: true, initial_throttle_pct: 20, step_throttle_pct: 15 },
      post_copy: 'allow',
      completion_timeout_s_per_gib: 800,
      progress_timeout_s: 150,
    });
    const done = await eventually(async () => {
      const status = await cli(['cloudsvc:migration:status', id, '--json']);
      return status.code === 0 && status.json().attributes.state === 'CLEANED_UP' ? status.json() : undefined;
    });
    expect(done.attributes.history.map((h: Body) => h.state)).toEqual(happyPath('live'));

    const text = await cli(['cloudsvc:migration:status', id]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Migration ${id}: CLEANED_UP`);
    expect(text.stdout).toContain('point of no return  LIVE_MIGRATING (reached');
    expect(text.stdout).toContain(
      'convergence         downtime ≤ 40 ms, no bandwidth cap, auto-converge 20% +15%, post-copy allow, ' +
        '800 s/GiB to complete, 150 s without progress',
    );
    expect(text.stdout).toMatch(/History\n {2}\S+Z {2}REQUESTED/);
    expect((await cli(['cloudsvc:migration:status', randomUUID()])).code).toBe(2);
    expect((await cli(['cloudsvc:migration:status', 'nope'])).code).toBe(2);
  });
});

describe('cloudsvc:migration:start --dry-run and preflight', () => {
  it('run the real preflight and report, and change nothing in the database', async () => {
    const database = await isolatedDatabase();
    const own = createDatabase({ url: database.url, poolSize: 1, namedStatements: false });
    try {
      const db = own.db;
      const location = await seed.location(db);
      const source = await seed.hypervisor(db, location.id);
      const target = await seed.hypervisor(db, location.id);
      for (const h of [source, target]) await setHypervisorStatus(db, h.id, 'online');
      const owner = await seed.user(db);
      const instance = await seed.instance(db, {
        userId: owner.id,
        locationId: location.id,
        hypervisorId: source.id,
      });
      const settings = settingsOf(env.config, { DATABASE_URL: database.url });
      const before = await tableDigest(db);

      const dry = await cli(['cloudsvc:migration:start', instance.id, '--mode=AUTO', '--dry-run'], {
        settings,
      });
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`target    ${target.name} (${target.id}), strategy live`);
      expect(dry.stdout).toContain('Dry run: nothing was requested or changed.');
      const dryJson = await cli(
        ['cloudsvc:migration:start', instance.id, '--mode=LIVE_REQUIRED', '--dry-run', '--json'],
        { settings },
      );
      expect(dryJson.json().attributes).toMatchObject({ ok: true, strategy: 'live' });
      const preflight = await cli(['cloudsvc:migration:preflight', instance.id, '--json'], { settings });
      expect(preflight.code).toBe(0);

      expect(await tableDigest(db)).toEqual(before);
    } finally {
      await own.close();
      await database.drop();
    }
  });
});

describe('cloudsvc:migration:recover and health', () => {
  it('shows a migration waiting for an operator read-only, then records a decision with --mark', async () => {
    const { source, target, targetAgent, instance } = await pair();
    targetAgent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const start = await cli([
      'cloudsvc:migration:start',
      instance.id,
      `--target=${target.id}`,
      '--mode=AUTO',
      '--force',
    ]);
    expect(start.code).toBe(1);
    expect(start.stdout).toMatch(/RECOVERY_REQUIRED .*failed_step=STARTING_TARGET/);
    const [migration] = await migrationsOf(instance.id);
    const id = migration!.id;
    expect(start.stdout).toContain(`Waiting for an operator: cloudsvc cloudsvc:migration:recover ${id}`);

    const before = await findMigration(env.db, id);
    const view = await cli(['cloudsvc:migration:recover', id]);
    expect(view.code).toBe(0);
    expect(view.stdout).toContain(`Migration ${id}: RECOVERY_REQUIRED`);
    expect(view.stdout).toContain('failed step  STARTING_TARGET');
    expect(view.stdout).toContain(`source       ${source.name} (${source.id}): online`);
    expect(view.stdout).toContain(`target       ${target.name} (${target.id}): online`);
    expect(view.stdout).toContain('on the source hypervisor according to the panel');
    for (const decision of ['retry', 'target_authoritative', 'source_authoritative'])
      expect(view.stdout).toContain(`  ${decision}`);
    const json = await cli(['cloudsvc:migration:recover', id, '--json']);
    expect(json.json()).toMatchObject({
      migration: { attributes: { uuid: id, state: 'RECOVERY_REQUIRED' } },
      source: { uuid: source.id, status: 'online' },
      target: { uuid: target.id, status: 'online' },
      instance: { uuid: instance.id, hypervisor_uuid: source.id, on: 'source' },
      decisions: ['retry', 'target_authoritative', 'source_authoritative'],
    });
    expect(await findMigration(env.db, id)).toEqual(before);

    // A migration waiting for an operator makes the plane unhealthy.
    const health = await cli(['cloudsvc:migration:health', '--json']);
    expect(health.code).toBe(1);
    expect(health.json()).toMatchObject({ healthy: false, worker: { reachable: true } });
    expect(health.json().recovery_required).toBeGreaterThanOrEqual(1);

    for (const args of [['--mark=retry'], ['--mark=restart', '--reason=x'], ['--reason=x']]) {
      const refused = await cli(['cloudsvc:migration:recover', id, ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
    }
    const marked = await cli([
      'cloudsvc:migration:recover',
      id,
      '--mark=source_authoritative',
      '--reason=source checked, running',
    ]);
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stdout).toContain(`Recorded source_authoritative on migration ${id}`);
    const ended = await eventually(async () => {
      const row = await findMigration(env.db, id);
      return row?.state === 'ROLLED_BACK' ? row : undefined;
    });
    expect(ended.recovery).toMatchObject({
      decision: 'source_authoritative',
      reason: 'source checked, running',
    });
    expect(String(ended.recovery?.by)).toMatch(/^system:cli:/);

    const again = await cli(['cloudsvc:migration:recover', id, '--mark=retry', '--reason=again']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('MIGRATION_NOT_RECOVERABLE');
    const nothing = await cli(['cloudsvc:migration:recover', id]);
    expect(nothing.stdout).toContain('Nothing to decide: the migration is ROLLED_BACK');
  });

  it('health is 0 with a worker polling and nothing to report, 1 when no worker polls the task queue', async () => {
    const database = await isolatedDatabase();
    try {
      const settings = settingsOf(env.config, { DATABASE_URL: database.url });
      const healthy = await cli(['cloudsvc:migration:health'], { settings });
      expect(healthy.code, healthy.stdout).toBe(0);
      expect(healthy.stdout).toContain('Migration health: healthy');
      expect(healthy.stdout).toMatch(/workers +polling test-/);

      const noWorker = await cli(['cloudsvc:migration:health', '--json'], {
        settings: { ...settings, TEMPORAL_TASK_QUEUE: `nobody-${randomUUID()}` },
      });
      expect(noWorker.code).toBe(1);
      expect(noWorker.json()).toMatchObject({
        healthy: false,
        worker: { reachable: false, workflow_pollers: 0, activity_pollers: 0 },
        recovery_required: 0,
        stuck: [],
        expired_leases: [],
      });
    } finally {
      await database.drop();
    }
  });
});

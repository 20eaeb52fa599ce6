import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { operatorCli, settingsOf } from '../cli/operator-cli.js';
import { eventually } from '../support/eventually.js';
import { type Body, json } from '../support/http.js';
import { sample } from '../support/metrics-text.js';
import { migrationEnd, requestedMigration } from '../support/migrations.js';
import { type PageBrowser, pageBrowser } from '../support/pages.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A live move's figures (docs/migration.md "Live progress") on their whole path with the simulated
 * hypervisor: its `migration.live` progress reports carry them, the panel keeps the latest on the
 * migration, and the admin API, `cloudsvc:migration:status`, the admin page and /metrics show
 * them while the memory moves; at the end, the measured downtime and the total time.
 */

/** How long the simulated source takes to move the memory: long enough to look at it moving. */
const LIVE_MS = 4000;
const MIB = 1024 * 1024;

let env: Stack;
let b: PageBrowser;
let locationId: string;

beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '300' } });
  b = pageBrowser((path, init) => env.app.request(path, init));
  expect((await b.login(env.admin.key)).status).toBe(303);
  locationId = (await seed.location(env.db)).id;
});
afterAll(() => env.close());

const slowLive = (ms: number) => ({
  AGENT_SIM_LATENCY_MS: JSON.stringify({ 'migration.live': ms, default: 0 }),
});

/** A source whose live moves take `liveMs` (so does the target's), and an instance running on the source. */
async function pair(liveMs = LIVE_MS) {
  const { hypervisor: source, agent: sourceAgent } = await env.hypervisorWithAgent(slowLive(liveMs), {
    locationId,
  });
  const { hypervisor: target } = await env.hypervisorWithAgent(slowLive(liveMs), { locationId });
  const instance = await env.provisionedInstance(source);
  return { source, target, instance, sourceAgent };
}

const shown = async (id: string): Promise<Body> =>
  (await env.call(env.admin, 'GET', `/admin/cloudsvc/migrations/${id}`)).body.attributes;

/** The migration as the admin API shows it once the source has reported figures of its memory moving. */
const moving = (id: string) =>
  eventually(
    async () => {
      const m = await shown(id);
      return m.state === 'LIVE_MIGRATING' && m.live_progress?.figures ? m : undefined;
    },
    30_000,
    'figures shown while LIVE_MIGRATING',
  );

const scrape = async () => (await fetch(env.metricsUrl)).text();
const status = (id: string) =>
  operatorCli(['cloudsvc:migration:status', id], { settings: settingsOf(env.config) });

async function ended(migration: Body) {
  expect(await migrationEnd(env, migration.workflow_id)).toEqual({ state: 'CLEANED_UP' });
  return shown(migration.uuid);
}

describe('a live move’s progress', () => {
  it('is shown while the memory moves by the API, the CLI, the admin page and /metrics, then its downtime and total time', async () => {
    const { target, instance } = await pair();
    const downtimesBefore = sample(await scrape(), 'cloudsvc_migration_downtime_seconds_count');
    const migration = await requestedMigration(env, instance.id, target.id, { mode: 'LIVE_REQUIRED' });

    const m = await moving(migration.uuid);
    const live = m.live_progress;
    const f = live.figures;
    expect(f.total_bytes).toBe(instance.memory_mb * MIB);
    expect(f.transferred_bytes + f.remaining_bytes).toBe(f.total_bytes);
    expect(f.transferred_bytes).toBeGreaterThan(0);
    expect(f).toMatchObject({ dirty_rate_bytes_per_s: 0, iterations: 1, throttle_pct: 0 });
    expect(f.expected_downtime_ms).toBeGreaterThanOrEqual(0);
    expect(live).toMatchObject({ downtime_ms: null, total_ms: null });
    expect(Date.parse(live.reported_at)).toBeGreaterThan(Date.parse(m.created_at));
    expect(JSON.stringify(live)).not.toMatch(/task/);

    const text = await status(migration.uuid);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      / {2}live progress {7}[\d.]+ [KMG]iB sent, [\d.]+ [KMG]iB of [\d.]+ [KMG]iB remaining, dirtied at 0 B\/s, pass 1, throttle 0 %, expected downtime \d/,
    );

    const part = await b.get(`/admin/cloudsvc/migrations/${migration.uuid}/view?part=live`, {
      'X-Live-Refresh': '1',
    });
    expect(part.status).toBe(200);
    expect(part.html).toContain('<h2>Live move</h2>');
    expect(part.html).toMatch(/<dd data-figure="transferred_bytes">[\d.]+ [KMG]iB of [\d.]+ [KMG]iB<\/dd>/);
    expect(part.html).toContain('<dd data-figure="iterations">1</dd>');
    expect(part.html).toContain('<dd data-figure="throttle_pct">0 %</dd>');
    expect(part.html).not.toContain('data-live-final');

    const metrics = await scrape();
    const labels = { migration: migration.uuid };
    expect(sample(metrics, 'cloudsvc_migration_live_remaining_bytes', labels)).toBeGreaterThan(0);
    expect(sample(metrics, 'cloudsvc_migration_live_transferred_bytes', labels)).toBeGreaterThan(0);
    expect(sample(metrics, 'cloudsvc_migration_live_iterations', labels)).toBe(1);
    expect(metrics).toContain(
      `cloudsvc_migration_live_dirty_rate_bytes_per_second{migration="${migration.uuid}"} 0`,
    );
    expect(metrics).toContain(`cloudsvc_migration_live_throttle_percent{migration="${migration.uuid}"} 0`);
    expect(metrics).toContain(
      `cloudsvc_migration_live_expected_downtime_seconds{migration="${migration.uuid}"}`,
    );

    const done = await ended(migration);
    expect(done.live_progress.downtime_ms).toBe(done.interruption_ms);
    expect(done.live_progress.downtime_ms).toBeGreaterThanOrEqual(0);
    expect(done.live_progress.total_ms).toBeGreaterThanOrEqual(LIVE_MS);
    expect(done.live_progress.figures.total_bytes).toBe(instance.memory_mb * MIB);

    const after = await scrape();
    expect(after).not.toContain(`migration="${migration.uuid}"`);
    expect(sample(after, 'cloudsvc_migration_downtime_seconds_count')).toBe(downtimesBefore + 1);

    const finalText = await status(migration.uuid);
    expect(finalText.stdout).toMatch(/ {2}last figures {8}.* sent, /);
    expect(finalText.stdout).toMatch(
      new RegExp(` {2}live move {11}downtime ${done.live_progress.downtime_ms} ms, total [\\d.]+ s`),
    );
    const page = await b.get(`/admin/cloudsvc/migrations/${migration.uuid}/view`);
    expect(page.html).toContain(`<dd data-figure="downtime_ms">${done.live_progress.downtime_ms} ms</dd>`);
    expect(page.html).toMatch(/<dd data-figure="total_ms">[\d.]+ s<\/dd>/);
  });

  it('is not rolled back by a report older than the newest one taken', async () => {
    // Slow enough for the agent to report several times after the reports sent by hand.
    const { source, target, instance } = await pair(3 * LIVE_MS);
    const { token } = await createCredential(env.db, { type: 'agent', hypervisorId: source.id });
    const migration = await requestedMigration(env, instance.id, target.id, { mode: 'LIVE_REQUIRED' });
    await moving(migration.uuid);
    const task = await env.db
      .selectFrom('agent_tasks')
      .select(['id', 'last_sequence'])
      .where('workflow_id', '=', migration.workflow_id)
      .where('type', '=', 'migration.live')
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    const report = async (sequence: number, details: Record<string, number>) => {
      const reply = await fetch(`${env.url}/api/cloudsvc/agent/tasks/${task.id}/progress`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sequence, percent: 50, details: { kind: 'live_migration', ...details } }),
      });
      expect(reply.status).toBe(200);
      return (await json(reply)).attributes.directive as string;
    };
    const figures = (transferred: number) => ({
      transferred_bytes: transferred,
      remaining_bytes: 80_000 - transferred,
      total_bytes: 80_000,
      dirty_rate_bytes_per_s: 777,
      iterations: 7,
      throttle_pct: 30,
      expected_downtime_ms: 42,
    });
    const figuresShown = async () => (await shown(migration.uuid)).live_progress.figures;

    // Far ahead of the agent's own sequences: every report the agent sends from now on is older.
    const ahead = task.last_sequence + 1000;
    await report(ahead, figures(60_000));
    expect(await figuresShown()).toEqual(figures(60_000));
    await report(ahead - 1, figures(10_000));
    expect(await figuresShown()).toEqual(figures(60_000));
    await report(ahead + 1, figures(70_000));
    expect(await figuresShown()).toEqual(figures(70_000));

    // An older report is no heartbeat either: newer ones keep the step alive until the agent's
    // completion (which an older sequence does not hold back) ends the task.
    let sequence = ahead + 1;
    const keepingAlive = (async () => {
      while ((await report(++sequence, figures(70_000))) === 'continue') await sleep(500);
    })();
    await eventually(
      async () => {
        const late = await env.db
          .selectFrom('agent_task_reports')
          .select('sequence')
          .where('task_id', '=', task.id)
          .where('kind', '=', 'progress')
          .where('sequence', '>', task.last_sequence)
          .where('sequence', '<', ahead - 1)
          .execute();
        return late.length >= 2;
      },
      20_000,
      'two later reports of the agent, with older sequences',
    );
    expect(await figuresShown()).toEqual(figures(70_000));

    const done = await ended(migration);
    await keepingAlive;
    expect(done.live_progress.figures).toEqual(figures(70_000));
    expect(done.live_progress.downtime_ms).toBe(done.interruption_ms);
    expect(done.live_progress.total_ms).toBeGreaterThanOrEqual(3 * LIVE_MS);
    const tasks = await env.db
      .selectFrom('agent_tasks')
      .select('id')
      .where('workflow_id', '=', migration.workflow_id)
      .where('type', '=', 'migration.live')
      .execute();
    expect(tasks).toHaveLength(1);
  });

  it('belongs to each move: twice on one instance, and two moves at once', async () => {
    const { source, target, instance } = await pair();
    const there = await requestedMigration(env, instance.id, target.id, { mode: 'LIVE_REQUIRED' });
    await moving(there.uuid);
    const first = await ended(there);
    const back = await requestedMigration(env, instance.id, source.id, { mode: 'LIVE_REQUIRED' });
    expect((await shown(back.uuid)).live_progress).toBeNull();
    const movingBack = await moving(back.uuid);
    expect(movingBack.live_progress.total_ms).toBeNull();
    const second = await ended(back);
    expect(second.live_progress.total_ms).toBeGreaterThanOrEqual(LIVE_MS);
    // The first move's end stays its own.
    expect((await shown(there.uuid)).live_progress).toEqual(first.live_progress);

    const a = await pair();
    const c = await pair();
    const [ma, mc] = await Promise.all([
      requestedMigration(env, a.instance.id, a.target.id, { mode: 'LIVE_REQUIRED' }),
      requestedMigration(env, c.instance.id, c.target.id, { mode: 'LIVE_REQUIRED' }),
    ]);
    await Promise.all([moving(ma.uuid), moving(mc.uuid)]);
    const metrics = await scrape();
    for (const m of [ma, mc])
      expect(
        sample(metrics, 'cloudsvc_migration_live_remaining_bytes', { migration: m.uuid }),
      ).toBeGreaterThan(0);
    const [ea, ec] = await Promise.all([ended(ma), ended(mc)]);
    for (const [done, of] of [
      [ea, a],
      [ec, c],
    ] as const) {
      expect(done.live_progress.figures.total_bytes).toBe(of.instance.memory_mb * MIB);
      expect(done.live_progress.total_ms).toBeGreaterThanOrEqual(LIVE_MS);
    }
  });

  it('leaves the gauges once its live task has failed, the last figures kept and no end', async () => {
    const { target, instance, sourceAgent } = await pair();
    sourceAgent.armFault('migration.live', { mode: 'fail-after' });
    const migration = await requestedMigration(env, instance.id, target.id, { mode: 'LIVE_REQUIRED' });
    await moving(migration.uuid);
    const labels = { migration: migration.uuid };
    expect(sample(await scrape(), 'cloudsvc_migration_live_remaining_bytes', labels)).toBeGreaterThan(0);
    await eventually(
      async () => (await scrape()).includes(`migration="${migration.uuid}"`) === false,
      30_000,
      'the move gone from the gauges',
    );
    const m = await shown(migration.uuid);
    expect(m.live_progress.figures.total_bytes).toBe(instance.memory_mb * MIB);
    expect(m.live_progress).toMatchObject({ downtime_ms: null, total_ms: null });
    expect(m.interruption_ms).toBeNull();
  });

  it('is null for a cold move', async () => {
    const { target, instance } = await pair();
    const migration = await requestedMigration(env, instance.id, target.id, { mode: 'COLD' });
    const done = await ended(migration);
    expect(done.strategy).toBe('cold');
    expect(done.live_progress).toBeNull();
  });
});

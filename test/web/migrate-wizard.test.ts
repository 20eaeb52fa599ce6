import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { eventually } from '../support/eventually.js';
import { seedMigrationRecord } from '../support/migrations.js';
import { type PageBrowser, pageBrowser } from '../support/pages.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;
let b: PageBrowser;

beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '300' } });
  b = pageBrowser((path, init) => env.app.request(path, init));
  expect((await b.login(env.admin.key)).status).toBe(303);
});
afterAll(() => env.close());

const wizard = (instanceId: string, query = '') =>
  `/admin/cloudsvc/instances/view/${instanceId}/migrate/wizard${query}`;
const migrationsOf = (instanceId: string) =>
  env.db
    .selectFrom('migrations')
    .select(['id', 'state', 'target_hypervisor_id'])
    .where('instance_id', '=', instanceId)
    .execute();

/** An instance on a hypervisor of its own location, a target beside it, and a hypervisor there that is offline. */
async function placed() {
  const location = await seed.location(env.db);
  const place = { locationId: location.id };
  const { hypervisor: source } = await env.hypervisorWithAgent({}, place);
  const { hypervisor: target } = await env.hypervisorWithAgent({}, place);
  const offline = await seed.hypervisor(env.db, location.id);
  const instance = await env.provisionedInstance(source);
  return { source, target, offline, instance };
}

const start = (instanceId: string, fields: Record<string, string>) =>
  b.post(wizard(instanceId), { csrf: b.csrf(), reason: 'rebalancing', ...fields });

describe('GET /admin/cloudsvc/instances/view/{uuid}/migrate/wizard', () => {
  it('shows the instance, its hypervisor, the ranked candidates and the rejected with their reasons', async () => {
    const { source, target, offline, instance } = await placed();
    const page = await b.get(wizard(instance.id));
    expect(page.status).toBe(200);
    expect(page.html).toContain(source.name);
    expect(page.html).toContain(`value="${target.id}"`);
    expect(page.html).toMatch(new RegExp(`1\\. ${target.name}: (live|cold)`));
    const rejected = page.html.slice(page.html.indexOf('cannot take it'));
    expect(rejected).toContain(offline.name);
    expect(rejected).toContain('TARGET_UNREACHABLE');
    expect(page.html).toContain('Ready:');
    expect(page.html).toContain(`Start the migration to ${target.name}`);
    expect(page.html).toContain('id="mode-AUTO" name="mode" value="AUTO" checked');
  });

  it('shows the blockers of a target that cannot take it, and no start', async () => {
    const { offline, instance } = await placed();
    const page = await b.get(wizard(instance.id, `?mode=COLD&target=${offline.id}`));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Blocked:');
    expect(page.html).toContain('TARGET_UNREACHABLE');
    expect(page.html).not.toContain('Start the migration');
  });

  it('offers the move back to a host that retains an earlier move’s copy, with the warning, as the API takes it', async () => {
    const { source, target, instance } = await placed();
    // The instance came from `target`, whose copy that move retains (its cleanup still to come).
    await seedMigrationRecord(env.db, {
      instanceId: instance.id,
      sourceId: target.id,
      targetId: source.id,
      state: 'COMPLETED',
    });
    const page = await b.get(wizard(instance.id, `?mode=AUTO&target=${target.id}`));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Ready:');
    expect(page.html).toContain('RETAINED_COPY_REPLACED');
    expect(page.html).toContain(`Start the migration to ${target.name}`);
  });

  it('answers an unknown instance with a 404 page, and a choice that is not valid with 400', async () => {
    expect((await b.get(wizard(randomUUID()))).status).toBe(404);
    expect((await b.get('/admin/cloudsvc/instances/view/nope/migrate/wizard')).status).toBe(404);
    const { instance } = await placed();
    const bad = await b.get(wizard(instance.id, '?mode=FAST&target=x'));
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Not a valid choice: mode, target.');
  });
});

describe('the wizard’s start', () => {
  it('starts the migration to the target the check showed, and follows it to its end', async () => {
    const { target, instance } = await placed();
    await b.get(wizard(instance.id, `?mode=COLD&target=${target.id}`));
    const started = await start(instance.id, { mode: 'COLD', target: target.id });
    expect(started.status).toBe(303);
    const [migration] = await migrationsOf(instance.id);
    expect(started.location).toBe(wizard(instance.id, `?migration=${migration!.id}`));
    expect(migration!.target_hypervisor_id).toBe(target.id);

    const follow = await b.get(started.location!);
    expect(follow.html).toContain('3. Follow');
    expect(follow.html).toContain('data-live=');
    await eventually(
      async () =>
        (await b.get(`${started.location}&part=live`, { 'X-Live-Refresh': '1' })).html.includes(
          'data-live-final',
        ),
      30_000,
      'the followed migration to end',
    );
    const ended = await b.get(started.location!);
    expect(ended.html).toContain('The migration completed');
    expect(ended.html).toContain('<span class="badge done">CLEANED_UP</span>');
  });

  it('refuses a second start while the first runs, and of two at once starts one', async () => {
    const { target, instance } = await placed();
    await b.get(wizard(instance.id));
    const answers = await Promise.all([
      start(instance.id, { mode: 'AUTO', target: target.id }),
      start(instance.id, { mode: 'AUTO', target: target.id }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.html).toMatch(
      /The migration was not started: .*\((INSTANCE_MIGRATING|SVC-OP-409|MIGRATION_BLOCKED)\)/,
    );
    expect(await migrationsOf(instance.id)).toHaveLength(1);
    const again = await start(instance.id, { mode: 'AUTO', target: target.id });
    expect(again.status).toBe(409);
    expect(await migrationsOf(instance.id)).toHaveLength(1);
  });

  it('refuses a start without the form token, or with a choice that is not valid, and changes nothing', async () => {
    const { target, instance } = await placed();
    await b.get(wizard(instance.id));
    const forged = await b.post(wizard(instance.id), { csrf: 'forged', mode: 'AUTO', target: target.id });
    expect(forged.status).toBe(403);
    const bad = await start(instance.id, { mode: 'SIDEWAYS', target: target.id });
    expect(bad.status).toBe(400);
    expect(await migrationsOf(instance.id)).toEqual([]);
  });

  it('offers the convergence policy with its defaults, starts with the figures given, and refuses one out of bounds', async () => {
    const { target, instance } = await placed();
    const page = await b.get(wizard(instance.id, `?mode=AUTO&target=${target.id}`));
    expect(page.html).toContain('Convergence of a live move');
    expect(page.html).toMatch(/name="max_downtime_ms"[^>]*placeholder="500"/);
    expect(page.html).toContain('default (never)');
    for (const [field, value] of [
      ['max_downtime_ms', '9001'],
      ['initial_throttle_pct', '71'],
      ['post_copy', 'always'],
      ['progress_timeout_s', 'soon'],
    ] as const) {
      const bad = await start(instance.id, { mode: 'AUTO', target: target.id, [field]: value });
      expect(bad.status, field).toBe(400);
      expect(bad.html, field).toContain(field);
    }
    expect(await migrationsOf(instance.id)).toEqual([]);
    const started = await start(instance.id, {
      mode: 'AUTO',
      target: target.id,
      max_downtime_ms: '60',
      bandwidth_mbps: '',
      auto_converge: 'on',
      post_copy: 'after_timeout',
    });
    expect(started.status).toBe(303);
    const [recorded] = await env.db
      .selectFrom('migrations')
      .select('convergence')
      .where('instance_id', '=', instance.id)
      .execute();
    expect(recorded?.convergence).toEqual({
      max_downtime_ms: 60,
      bandwidth_mbps: null,
      auto_converge: { enabled: true, initial_throttle_pct: 20, step_throttle_pct: 10 },
      post_copy: 'after_timeout',
      completion_timeout_s_per_gib: 800,
      progress_timeout_s: 150,
    });
  });

  it('with the workflow service unreachable shows 503, gives back what it took; twice, then one starts', async () => {
    const { target, instance } = await placed();
    const cut = buildApp({ ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } });
    const cutBrowser = pageBrowser((path, init) => cut.request(path, init));
    for (const [name, value] of b.cookies) cutBrowser.cookies.set(name, value);
    for (let round = 0; round < 2; round++) {
      await cutBrowser.get(wizard(instance.id));
      const refused = await cutBrowser.post(wizard(instance.id), {
        csrf: cutBrowser.csrf(),
        mode: 'AUTO',
        target: target.id,
      });
      expect(refused.status).toBe(503);
      expect(refused.html).toContain('SVC-SYS-503');
    }
    expect((await migrationsOf(instance.id)).map((m) => m.state)).toEqual(['ROLLED_BACK', 'ROLLED_BACK']);
    await b.get(wizard(instance.id));
    expect((await start(instance.id, { mode: 'AUTO', target: target.id })).status).toBe(303);
  });

  it('follows only a migration of its own instance', async () => {
    const one = await placed();
    const other = await placed();
    await b.get(wizard(one.instance.id));
    const started = await start(one.instance.id, { mode: 'AUTO', target: one.target.id });
    const id = new URL(started.location!, 'http://x').searchParams.get('migration');
    expect((await b.get(wizard(other.instance.id, `?migration=${id}`))).status).toBe(404);
  });
});

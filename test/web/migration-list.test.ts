import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMigrationRecord } from '../support/migrations.js';
import { type PageBrowser, pageBrowser } from '../support/pages.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;
let b: PageBrowser;
let source: { id: string; name: string };
let target: { id: string; name: string };
let instanceId: string;
const LIST = '/admin/cloudsvc/migrations';
const HOUR = 3_600_000;

beforeAll(async () => {
  env = await startStack({ config: { MIGRATION_LONG_TRANSFER_S: '600' } });
  b = pageBrowser((path, init) => env.app.request(path, init));
  expect((await b.login(env.admin.key)).status).toBe(303);
  const location = await seed.location(env.db);
  source = await seed.hypervisor(env.db, location.id);
  target = await seed.hypervisor(env.db, location.id);
  instanceId = (
    await seed.instance(env.db, { userId: env.client.id, locationId: location.id, hypervisorId: source.id })
  ).id;
});
afterAll(() => env.close());

const ofThisTest = (query = '') => `${LIST}?hypervisor=${source.id}${query}`;
/** The migrations a page lists in its main table (not the attention panel), by their short ids. */
const listed = (html: string) => {
  const main = html.slice(html.indexOf('Migrations, newest first'));
  return [...main.matchAll(/migrations\/([0-9a-f-]{36})\/view/g)].map((m) => m[1]);
};
const attentionOf = (html: string) => {
  const start = html.indexOf('Needs attention');
  if (start < 0) return [];
  const panel = html.slice(start, html.indexOf('</section>', start));
  return [...panel.matchAll(/migrations\/([0-9a-f-]{36})\/view/g)].map((m) => m[1]);
};

describe('GET /admin/cloudsvc/migrations (page)', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR);
    const base = { instanceId, sourceId: source.id, targetId: target.id };
    ids.done = await seedMigrationRecord(env.db, {
      ...base,
      state: 'CLEANED_UP',
      createdAt: at(30),
      updatedAt: at(29),
    });
    ids.waiting = await seedMigrationRecord(env.db, {
      ...base,
      state: 'RECOVERY_REQUIRED',
      failedStep: 'STARTING_TARGET',
      createdAt: at(20),
      updatedAt: at(19),
    });
    ids.stuck = await seedMigrationRecord(env.db, {
      ...base,
      state: 'TRANSFERRING',
      createdAt: at(10),
      updatedAt: at(9),
    });
    ids.moving = await seedMigrationRecord(env.db, {
      ...base,
      state: 'TRANSFERRING',
      createdAt: at(1),
      updatedAt: at(0),
    });
    ids.kept = await seedMigrationRecord(env.db, {
      ...base,
      state: 'COMPLETED',
      createdAt: at(5),
      updatedAt: at(4),
    });
  });

  it('lists newest first, with state badges, source and target', async () => {
    const page = await b.get(ofThisTest());
    expect(page.status).toBe(200);
    expect(listed(page.html)).toEqual([ids.moving, ids.kept, ids.stuck, ids.waiting, ids.done]);
    expect(page.html).toContain('<span class="badge alarm">RECOVERY_REQUIRED</span>');
    expect(page.html).toContain(`${source.name} → ${target.name}`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('server-timing')).toMatch(/^total;dur=\d+(\.\d+)?;desc="Server time"$/);
  });

  it('puts the one waiting for a decision, then the stuck one, above the list; never a quiet state', async () => {
    const page = await b.get(ofThisTest());
    expect(attentionOf(page.html)).toEqual([ids.waiting, ids.stuck]);
    expect(page.html).toContain('Needs attention (2)');
    expect(page.html.indexOf('Needs attention')).toBeLessThan(page.html.indexOf('Migrations, newest first'));
  });

  it('filters by state, instance and time, combined', async () => {
    expect(listed((await b.get(ofThisTest('&state=TRANSFERRING'))).html)).toEqual([ids.moving, ids.stuck]);
    expect(listed((await b.get(`${LIST}?instance=${instanceId}`)).html)).toHaveLength(5);
    const since = new Date(Date.now() - 12 * HOUR).toISOString().slice(0, 16);
    const until = new Date(Date.now() - 3 * HOUR).toISOString().slice(0, 16);
    const window = await b.get(ofThisTest(`&since=${since}&until=${until}`));
    expect(listed(window.html)).toEqual([ids.kept, ids.stuck]);
    expect(window.html).toContain(`value="${since}"`);
  });

  it('refuses filters that are not valid with 400, naming the fields, and lists nothing', async () => {
    const page = await b.get(`${LIST}?instance=not-a-uuid&since=yesterday&state=FLYING`);
    expect(page.status).toBe(400);
    expect(page.html).toContain('id="f-instance-problem"');
    expect(page.html).toContain('id="f-since-problem"');
    expect(page.html).toContain('id="f-state-problem"');
    expect(page.html).toContain('aria-invalid="true"');
    expect(listed(page.html)).toEqual([]);
  });

  it('pages 25 at a time, with links to the next and the previous page', async () => {
    const location = await seed.location(env.db);
    const from = await seed.hypervisor(env.db, location.id);
    for (let i = 0; i < 27; i++) {
      await seedMigrationRecord(env.db, {
        instanceId,
        sourceId: from.id,
        targetId: target.id,
        state: 'CLEANED_UP',
      });
    }
    const first = await b.get(`${LIST}?hypervisor=${from.id}`);
    expect(listed(first.html)).toHaveLength(25);
    expect(first.html).toContain('Page 1 of 2');
    expect(first.html).toContain(`?hypervisor=${from.id}&amp;page=2`);
    const second = await b.get(`${LIST}?hypervisor=${from.id}&page=2`);
    expect(listed(second.html)).toHaveLength(2);
    expect(second.html).toContain('← Newer');
  });

  it('answers a live refresh with the region alone', async () => {
    const part = await b.get(ofThisTest('&part=live'), { 'X-Live-Refresh': '1' });
    expect(part.status).toBe(200);
    expect(part.html.startsWith('<div id="migrations-live"')).toBe(true);
    expect(part.html).not.toContain('<html');
    expect(listed(part.html)).toHaveLength(5);
  });

  it('lists a failed migration without its failure’s secrets, task ids or endpoints', async () => {
    const id = await seedMigrationRecord(env.db, {
      instanceId,
      sourceId: source.id,
      targetId: target.id,
      state: 'ROLLED_BACK',
      failure: { code: 'DISK_TRANSFER_FAILED', transfer_token: 'tt-secret-1', agent_task_id: 'task-77' },
      events: [{ state: 'TRANSFERRING', detail: { endpoint: '10.9.9.9:4444', token: 'tt-secret-2' } }],
    });
    const page = await b.get(ofThisTest());
    expect(listed(page.html)).toContain(id);
    for (const secret of ['tt-secret-1', 'tt-secret-2', 'task-77', '10.9.9.9'])
      expect(page.html).not.toContain(secret);
  });
});

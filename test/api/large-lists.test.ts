import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT, MAX_PAGE_OFFSET } from '../../domain/pagination.js';
import { isolatedDatabase } from '../support/database.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Lists over tables that grow without bound (db/keyset.ts): past EXACT_COUNT_LIMIT matches the
 * total is the planner's estimate and says so; a page by number starts at most MAX_PAGE_OFFSET
 * rows deep; and a page by number holds the same rows as the cursor walk to it. On a database of
 * this file's own: its ten thousand instances would weigh on every other file's lists.
 */
const database = await isolatedDatabase();
let env: Stack;
beforeAll(async () => {
  env = await startStack({ config: { DATABASE_URL: database.url } });
});
afterAll(async () => {
  await env?.close();
  await database.drop();
});

/** `count` instances of the user, one second apart, every third stopped; copies of one seeded row. */
async function instancesOf(userId: string, count: number) {
  const location = await seed.location(env.db);
  const first = await seed.instance(env.db, { userId, locationId: location.id });
  await sql`
    insert into instances (user_id, location_id, name, hostname, status, cpu_cores, memory_mb, disk_mb,
                           virtualization, boot_order, timezone, created_at, updated_at)
    select user_id, location_id, 'bulk-' || g, hostname, case when g % 3 = 0 then 'stopped' else 'running' end,
           cpu_cores, memory_mb, disk_mb, virtualization, boot_order, timezone,
           created_at - g * interval '1 second', updated_at
      from instances, generate_series(1, ${count - 1}::int) g where id = ${first.id}`.execute(env.db);
  await sql`analyze instances`.execute(env.db);
}

const ids = (body: { data: { attributes: { uuid: string } }[] }) => body.data.map((i) => i.attributes.uuid);

describe('a list longer than its exact count', () => {
  it('gives the planner’s estimate past the limit, and says so; an exact count below it', async () => {
    const many = await seed.user(env.db);
    await instancesOf(many.id, EXACT_COUNT_LIMIT + 50);
    const few = await seed.user(env.db);
    await instancesOf(few.id, 3);

    const list = (userId: string) =>
      env.admin.call('GET', `/api/application/cloudsvc/instances?user=${userId}`);
    const estimated = await list(many.id);
    expect(estimated.status).toBe(200);
    const { pagination } = estimated.body.meta;
    expect(pagination.total_estimated).toBe(true);
    expect(pagination.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    // The planner's estimate from fresh statistics: near the truth.
    expect(Math.abs(pagination.total - (EXACT_COUNT_LIMIT + 50))).toBeLessThan(EXACT_COUNT_LIMIT / 10);
    expect(pagination.total_pages).toBe(Math.ceil(pagination.total / 25));

    const exact = await list(few.id);
    expect(exact.body.meta.pagination).toMatchObject({ total: 3, total_estimated: false, total_pages: 1 });
    // Twice: the same answer.
    expect((await list(few.id)).body.meta.pagination).toEqual(exact.body.meta.pagination);
  });

  it('refuses a page by number that starts deeper than the limit, naming page, and serves the deepest one', async () => {
    const user = await seed.user(env.db);
    await instancesOf(user.id, 30);
    const base = `/api/application/cloudsvc/instances?user=${user.id}`;
    const deepest = MAX_PAGE_OFFSET / 25 + 1;
    const refused = await env.admin.call('GET', `${base}&per_page=25&page=${deepest + 1}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('SVC-REQ-400');
    expect(JSON.stringify(refused.body.errors)).toContain('page');
    const served = await env.admin.call('GET', `${base}&per_page=25&page=${deepest}`);
    expect(served.status).toBe(200);
    expect(served.body.data).toEqual([]);
  });

  it('holds the same rows at a page by number as the cursor walk reaches, filtered or not', async () => {
    const user = await seed.user(env.db);
    // 130 instances, 43 of them stopped: three pages of each, the last of the stopped short.
    await instancesOf(user.id, 130);
    for (const filter of ['', '&status=stopped']) {
      const base = `/api/application/cloudsvc/instances?user=${user.id}${filter}&per_page=20`;
      let cursor: string | null = null;
      for (let page = 1; page <= 3; page++) {
        const walked = await env.admin.call('GET', cursor ? `${base}&cursor=${cursor}` : base);
        const numbered = await env.admin.call('GET', `${base}&page=${page}`);
        expect(numbered.status).toBe(200);
        expect(ids(numbered.body).length).toBeGreaterThan(0);
        expect(ids(numbered.body)).toEqual(ids(walked.body));
        cursor = walked.body.meta.cursor.next;
      }
    }
  });

  it('reads a customer’s own list the same way', async () => {
    const customer = env.client;
    await instancesOf(customer.id, 45);
    const first = await customer.call('GET', '/api/client/cloud?per_page=20');
    const second = await customer.call('GET', '/api/client/cloud?per_page=20&page=2');
    const walked = await customer.call(
      'GET',
      `/api/client/cloud?per_page=20&cursor=${first.body.meta.cursor.next}`,
    );
    expect(ids(second.body)).toEqual(ids(walked.body));
    expect(first.body.meta.pagination).toMatchObject({ total: 45, total_estimated: false, total_pages: 3 });
  });
});

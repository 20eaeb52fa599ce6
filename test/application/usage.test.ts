import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertPlan } from '../../db/repositories/catalogue/catalog.js';
import {
  listUsageRecords,
  type UsageCursor,
  usageRecordsAfter,
} from '../../db/repositories/usage/usage-records.js';
import { closeHour } from '../../services/usage/close-hours.js';
import type { Reply } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';
import { addHours, at, minutesInto, newInstance, pastHour } from '../usage/history.js';

/**
 * Reading usage records (docs/usage.md "Reading"): the Application API's, by user, instance and
 * range, as JSON pages and CSV; hostile ranges refused (by the Client API too).
 */
let t: Stack;
let H: Date;
let mine: { id: string };
let theirs: { id: string };
let plan: { id: string; code: string };
beforeAll(async () => {
  t = await startStack();
  // A code no API would take (catalogue codes are plain): it proves a formula start is escaped.
  plan = await upsertPlan(t.db, {
    code: `=HYPERLINK("http://x","y")-${Date.now()}`,
    name: 'Formula plan',
    cpu_cores: 1,
    memory_mb: 1024,
    disk_mb: 10240,
  });
  H = pastHour();
  [mine, theirs] = await at(t.db, minutesInto(H, -1), async (trx) => [
    await newInstance(trx, t.client.id, t.locationId, plan.id),
    await newInstance(trx, t.stranger.id, t.locationId, null),
  ]);
  await at(t.db, minutesInto(H, 30), (trx) =>
    trx.updateTable('instances').set({ status: 'stopped' }).where('id', '=', mine.id).execute(),
  );
  await closeHour(t.deps, H);
  await closeHour(t.deps, addHours(H, 1));
});
afterAll(() => t.close());

const range = (from = H, to = addHours(H, 2)) => `from=${from.toISOString()}&to=${to.toISOString()}`;
const admin = (query: string, headers?: Record<string, string>) =>
  t.call(t.admin, 'GET', `/api/application/cloudsvc/usage?${query}`, undefined, headers);
const customer = (who: typeof t.client, query: string) =>
  t.call(who, 'GET', `/api/client/cloud/account/usage?${query}`);
const metrics = (reply: Reply) =>
  (reply.body.data as { attributes: { hour: string; metric: string; quantity: string } }[])
    .map((r) => `${r.attributes.hour} ${r.attributes.metric} ${r.attributes.quantity}`)
    .sort();

describe('GET /usage (Application API)', () => {
  it("reads one user's records by hour, paged", async () => {
    const reply = await admin(`${range()}&user=${t.client.id}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(metrics(reply)).toEqual([
      `${H.toISOString()} instance.running 0.500000`,
      `${H.toISOString()} instance.stopped 0.500000`,
      `${addHours(H, 1).toISOString()} instance.stopped 1.000000`,
    ]);
    expect(reply.body.data[0].attributes).toMatchObject({
      user_uuid: t.client.id,
      instance_uuid: mine.id,
      plan_code: plan.code,
      unit: 'hours',
    });
    const page = await admin(`${range()}&instance=${mine.id}&per_page=2&page=2`);
    expect(page.body.meta.pagination).toMatchObject({ total: 3, count: 1, current_page: 2, total_pages: 2 });
  });

  it("filters by instance: the custom size's vCPU, memory and disk hours", async () => {
    const reply = await admin(`${range(H, addHours(H, 1))}&instance=${theirs.id}`);
    expect(metrics(reply).map((m) => m.split(' ').slice(1).join(' '))).toEqual([
      'instance.disk 40.000000',
      'instance.memory 2.000000',
      'instance.running 1.000000',
      'instance.vcpu 2.000000',
    ]);
  });

  it('answers CSV, formula cells escaped, by Accept or by format', async () => {
    for (const reply of [
      await admin(`${range()}&instance=${mine.id}`, { Accept: 'text/csv' }),
      await admin(`${range()}&instance=${mine.id}&format=csv`),
    ]) {
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toContain('text/csv');
      const lines = (reply.body as string).trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'id,hour,user_uuid,instance_uuid,resource_type,resource_uuid,plan_uuid,plan_code,metric,quantity,unit,recorded_at',
      );
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x"",""y"")-`);
      expect(lines.slice(1).every((line) => !line.includes(',=') && !line.includes(',"='))).toBe(true);
    }
  });

  it('exports in batches that each start where the last ended, in the pages’ order', async () => {
    const filters = { userId: t.client.id, from: H, to: addHours(H, 2) };
    const listed = await listUsageRecords(t.db, filters, { offset: 0, limit: 100 });
    const exported: string[] = [];
    let after: UsageCursor | null = null;
    for (;;) {
      const [row] = await usageRecordsAfter(t.db, filters, after, 1);
      if (!row) break;
      exported.push(row.id);
      after = { hour: row.hour, id: row.id };
    }
    expect(exported).toEqual(listed.rows.map((r) => r.id));
    expect(exported).toHaveLength(3);
  });

  it('refuses hostile ranges with 422 and changes nothing', async () => {
    const before = await t.db
      .selectFrom('usage_records')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const cases = [
      range(addHours(H, 2), H),
      range(H, H),
      range(H, addHours(H, 24 * 31 + 1)),
      range(new Date('1970-01-01T00:00:00Z'), new Date('2999-01-01T00:00:00Z')),
      range(minutesInto(H, 30), addHours(H, 2)),
    ];
    for (const query of cases) {
      const reply = await admin(query);
      expect(reply.status, query).toBe(422);
      expect(reply.body.errors[0].code).toBe('SVC-USAGE-422');
      expect(reply.body.support_id).toEqual(expect.any(String));
      expect((await customer(t.client, query)).status).toBe(422);
    }
    expect((await admin('from=yesterday&to=today')).status).toBe(400);
    expect((await admin(`to=${H.toISOString()}`)).status).toBe(400);
    const after = await t.db
      .selectFrom('usage_records')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(after).toEqual(before);
  });

  it('is refused to a client key', async () => {
    expect((await t.call(t.client, 'GET', `/api/application/cloudsvc/usage?${range()}`)).status).toBe(403);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const uuids = (body: Body) => body.data.map((d: Body) => d.attributes.uuid);

/** A location of its own with two hypervisors and instances of two users in it (newest last). */
async function fleet() {
  const location = await seed.location(t.db);
  const [one, two] = [await seed.hypervisor(t.db, location.id), await seed.hypervisor(t.db, location.id)];
  const [alice, bob] = [await seed.user(t.db), await seed.user(t.db)];
  const made = [];
  for (const [i, [userId, hypervisorId, status]] of (
    [
      [alice.id, one.id, 'running'],
      [alice.id, two.id, 'stopped'],
      [bob.id, one.id, 'running'],
      [bob.id, two.id, 'error'],
      [alice.id, one.id, 'stopped'],
    ] as const
  ).entries()) {
    made.push(
      await seed.instance(t.db, {
        userId,
        locationId: location.id,
        hypervisorId,
        status,
        name: `fleet-${i}`,
      }),
    );
  }
  return { location, one, two, alice, bob, made };
}

describe("the administrators' list of every tenant's instances", () => {
  it('filters by user, hypervisor, location, status and suspension, the filters combining', async () => {
    const { location, one, alice, bob, made } = await fleet();
    const ids = (query: string) =>
      admin('GET', `/instances?location=${location.id}&${query}`).then((r) => uuids(r.body));
    const newestFirst = (rows: typeof made) => rows.map((r) => r.id).reverse();
    expect(await ids('')).toEqual(newestFirst(made));
    expect(await ids(`user=${alice.id}`)).toEqual(newestFirst(made.filter((r) => r.user_id === alice.id)));
    expect(await ids(`hypervisor=${one.id}&user=${bob.id}`)).toEqual([made[2]!.id]);
    expect(await ids('status=stopped')).toEqual(newestFirst([made[1]!, made[4]!]));
    await t.db
      .updateTable('instances')
      .set({ suspended_at: new Date() })
      .where('id', '=', made[3]!.id)
      .execute();
    expect(await ids('suspended=true')).toEqual([made[3]!.id]);
    expect(await ids('suspended=false')).not.toContain(made[3]!.id);
  });

  it('shows owner, placement and the running operation of each instance', async () => {
    const { location, one, alice, made } = await fleet();
    const listed = (await admin('GET', `/instances?location=${location.id}&user=${alice.id}&per_page=1`))
      .body;
    const shown = (await admin('GET', `/instances/${made[4]!.id}`)).body;
    expect(listed.data).toEqual([shown]);
    expect(shown.attributes).toMatchObject({
      uuid: made[4]!.id,
      user_id: alice.id,
      status: 'stopped',
      suspended_at: null,
      location: { id: location.id, code: location.code },
      hypervisor: { id: one.id, name: one.name },
      operation: null,
    });
    expect((await admin('GET', `/instances/${randomUUID()}`)).status).toBe(404);
  });

  it('reads on by cursor through the same rows as the numbered pages, with no count', async () => {
    const { location } = await fleet();
    const byPage = [];
    for (let page = 1; page <= 3; page++)
      byPage.push(
        ...uuids((await admin('GET', `/instances?location=${location.id}&per_page=2&page=${page}`)).body),
      );
    const first = (await admin('GET', `/instances?location=${location.id}&per_page=2`)).body;
    expect(first.meta.pagination).toMatchObject({ total: 5, total_pages: 3, current_page: 1 });
    const byCursor = uuids(first);
    let next = first.meta.cursor.next;
    while (next) {
      const page = (await admin('GET', `/instances?location=${location.id}&per_page=2&cursor=${next}`)).body;
      expect(page.meta.pagination).toBeUndefined();
      byCursor.push(...uuids(page));
      next = page.meta.cursor.next;
    }
    expect(byCursor).toEqual(byPage);
    expect(new Set(byCursor).size).toBe(5);
  });

  it('keeps its place when rows are added before the cursor', async () => {
    const { location, alice, made } = await fleet();
    const first = (await admin('GET', `/instances?location=${location.id}&per_page=2`)).body;
    await seed.instance(t.db, { userId: alice.id, locationId: location.id, name: 'newer' });
    const second = (
      await admin('GET', `/instances?location=${location.id}&per_page=2&cursor=${first.meta.cursor.next}`)
    ).body;
    expect(uuids(second)).toEqual([made[2]!.id, made[1]!.id]);
  });

  it('refuses a cursor it did not give, a cursor with a page, and filters that are not ids or statuses', async () => {
    for (const query of [
      'cursor=bm90LWEtY3Vyc29y',
      `cursor=${Buffer.from(`1~${randomUUID()}`).toString('base64url')}&page=2`,
      'user=bob',
      'status=sleeping',
      'suspended=maybe',
      'per_page=101',
    ]) {
      const refused = await admin('GET', `/instances?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.errors[0].code).toBe('SVC-REQ-400');
    }
  });

  it('is the administrators’ alone: a client key is refused (403), no key too (401)', async () => {
    const { made } = await fleet();
    for (const path of ['/instances', `/instances/${made[0]!.id}`]) {
      expect((await t.call(t.client, 'GET', `/api/application/cloudsvc${path}`)).status).toBe(403);
      expect((await t.call(null, 'GET', `/api/application/cloudsvc${path}`)).status).toBe(401);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endUnstartedMigration } from '../../db/records/migrations.js';
import { setHypervisorStatus } from '../../db/repositories/hypervisors/hypervisors.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * At most MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR moves out of one hypervisor at once (issue 47 item
 * 5): the request over the limit is refused with MIGRATION_SOURCE_BUSY and writes nothing, the
 * count and the record are one under the source's lock, and a slot comes back when a move ends.
 * No worker runs, so a recorded migration stays under way (REQUESTED) until the test ends it; the
 * database is the file's own, so a digest sees only what these requests did.
 */
const database = await isolatedDatabase();
let t: Stack;
beforeAll(async () => {
  t = await startStack({
    config: { DATABASE_URL: database.url, MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR: '2' },
  });
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

/** Online hypervisors of one location, with room for every instance and hold. */
async function hosts(count: number) {
  const made = [];
  for (let i = 0; i < count; i++) {
    const h = await seed.hypervisor(t.db, t.locationId, { cpuCores: 128 });
    await setHypervisorStatus(t.db, h.id, 'online');
    made.push(h);
  }
  return made;
}
const guestOn = (hypervisorId: string) =>
  seed.instance(t.db, { userId: t.client.id, locationId: t.locationId, hypervisorId });
const migrate = (instanceId: string, targetId: string) =>
  t.call(t.admin, 'POST', `/admin/cloudsvc/instances/${instanceId}/migrations`, {
    target_hypervisor_uuid: targetId,
    mode: 'COLD',
  });
const outOf = (hypervisorId: string) =>
  t.db
    .selectFrom('migrations')
    .select(['id', 'instance_id'])
    .where('source_hypervisor_id', '=', hypervisorId)
    .execute();

describe('moves out of one hypervisor, limited to 2 at once', () => {
  for (const round of [1, 2])
    it(`refuses a third from the same source with nothing written; another source passes (round ${round})`, async () => {
      const [source, target, other] = await hosts(3);
      const guests = [await guestOn(source!.id), await guestOn(source!.id), await guestOn(source!.id)];
      const elsewhere = await guestOn(other!.id);
      const accepted = [];
      for (const guest of guests.slice(0, 2)) {
        const answer = await migrate(guest.id, target!.id);
        expect(answer.status, JSON.stringify(answer.body)).toBe(202);
        accepted.push(answer.body.attributes.uuid as string);
      }

      const preflight = await t.call(
        t.admin,
        'POST',
        `/admin/cloudsvc/instances/${guests[2]!.id}/migrations/preflight`,
        { target_hypervisor_uuid: target!.id, mode: 'COLD' },
      );
      expect(preflight.status).toBe(200);
      expect(preflight.body.attributes.ok).toBe(false);
      expect(preflight.body.attributes.blockers.map((b: { code: string }) => b.code)).toEqual([
        'SOURCE_BUSY',
      ]);

      const before = await tableDigest(t.db);
      const refused = await migrate(guests[2]!.id, target!.id);
      expect(refused.status).toBe(409);
      expect(refused.headers.get('retry-after')).toBe('30');
      const [error] = refused.body.errors;
      expect(error.code).toBe('MIGRATION_SOURCE_BUSY');
      expect(error.detail).toContain('allows 2 at once');
      for (const id of accepted) expect(error.detail).toContain(id);
      expect(await tableDigest(t.db)).toEqual(before);

      expect((await migrate(elsewhere.id, target!.id)).status).toBe(202);
      expect((await outOf(source!.id)).map((m) => m.instance_id).sort()).toEqual(
        guests
          .slice(0, 2)
          .map((g) => g.id)
          .sort(),
      );
    });

  it('names a busy source among other blockers with MIGRATION_BLOCKED, which lists them all', async () => {
    const [source, target, closed] = await hosts(3);
    const guests = [await guestOn(source!.id), await guestOn(source!.id), await guestOn(source!.id)];
    for (const guest of guests.slice(0, 2)) expect((await migrate(guest.id, target!.id)).status).toBe(202);
    await t.db.updateTable('hypervisors').set({ maintenance: true }).where('id', '=', closed!.id).execute();
    const refused = await migrate(guests[2]!.id, closed!.id);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('MIGRATION_BLOCKED');
    expect(refused.body.errors[0].detail).toContain('TARGET_IN_MAINTENANCE, SOURCE_BUSY');
    expect(await outOf(source!.id)).toHaveLength(2);
  });

  for (const round of [1, 2])
    it(`takes exactly two of three requests made at once, and one more once a move ends (round ${round})`, async () => {
      const [source, targetA, targetB] = await hosts(3);
      const guests = [await guestOn(source!.id), await guestOn(source!.id), await guestOn(source!.id)];
      // Two targets: the requests contend for the source's slots, not for one target's lock.
      const answers = await Promise.all(guests.map((g, i) => migrate(g.id, (i % 2 ? targetA : targetB)!.id)));
      expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 409]);
      const refusedAt = answers.findIndex((a) => a.status === 409);
      expect(answers[refusedAt]!.body.errors[0].code).toBe('MIGRATION_SOURCE_BUSY');
      const recorded = await outOf(source!.id);
      expect(recorded).toHaveLength(2);

      expect((await migrate(guests[refusedAt]!.id, targetA!.id)).status).toBe(409);
      await endUnstartedMigration(t.db, recorded[0]!.id, {
        code: 'TEST_ENDED',
        message: 'ended by the test',
      });
      const again = await migrate(guests[refusedAt]!.id, targetA!.id);
      expect(again.status, JSON.stringify(again.body)).toBe(202);
      expect(await outOf(source!.id)).toHaveLength(3);
    });
});

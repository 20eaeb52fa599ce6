import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHour, rebuildHour } from '../../services/usage/close-hours.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { addHours, at, minutesInto, newInstance, pastHour, storedOf } from './history.js';

/**
 * Closing usage hours (docs/usage.md): from the history the triggers write, once per hour however
 * many close it, with records that equal the hour rebuilt and never change.
 */
let t: Stack;
let plan: { id: string; code: string };
beforeAll(async () => {
  t = await startStack();
  plan = (await seed.catalog(t.db)).plan;
});
afterAll(() => t.close());

const closedHours = async (hour: Date) =>
  (await t.db.selectFrom('usage_hours').select('records').where('hour', '=', hour).execute()).length;

describe('an hour closed from the history', () => {
  it('splits a status change, a suspension and a plan-less size, and equals the hour rebuilt', async () => {
    const H = pastHour();
    const [planned, custom] = await at(t.db, minutesInto(H, -30), async (trx) => [
      await newInstance(trx, t.client.id, t.locationId, plan.id),
      await newInstance(trx, t.client.id, t.locationId, null),
    ]);
    const set = (when: Date, fields: { status?: 'stopped' | 'running'; suspended_at?: Date | null }) =>
      at(t.db, when, (trx) =>
        trx.updateTable('instances').set(fields).where('id', '=', planned.id).execute(),
      );
    await set(minutesInto(H, 15), { status: 'stopped' });
    await set(minutesInto(H, 45), { suspended_at: minutesInto(H, 45) });
    await set(minutesInto(H, 90), { suspended_at: null, status: 'running' });

    expect(await closeHour(t.deps, H)).toMatchObject({ closed: true });
    expect(await closeHour(t.deps, addHours(H, 1))).toMatchObject({ closed: true });

    expect(await storedOf(t.db, H, [planned.id, custom.id])).toEqual({
      [`${planned.id} instance.running ${plan.code}`]: '0.250000',
      [`${planned.id} instance.stopped ${plan.code}`]: '0.500000',
      [`${planned.id} instance.suspended ${plan.code}`]: '0.250000',
      [`${custom.id} instance.running null`]: '1.000000',
      [`${custom.id} instance.vcpu null`]: '2.000000',
      [`${custom.id} instance.memory null`]: '2.000000',
      [`${custom.id} instance.disk null`]: '40.000000',
    });
    expect(await storedOf(t.db, addHours(H, 1), [planned.id])).toEqual({
      [`${planned.id} instance.suspended ${plan.code}`]: '0.500000',
      [`${planned.id} instance.running ${plan.code}`]: '0.500000',
    });

    // Rebuilt from the history alone, the hour is what was stored.
    // Only this test's instances: other files write history into past hours as they please.
    const ours = [planned.id, custom.id];
    const rebuilt = (await rebuildHour(t.db, H)).filter((r) => ours.includes(r.resourceId));
    const stored = await t.db
      .selectFrom('usage_records')
      .selectAll()
      .where('hour', '=', H)
      .where('resource_id', 'in', ours)
      .execute();
    const shape = (r: {
      resourceId: string;
      metric: string;
      planId: string | null;
      userId: string;
      quantity: string;
    }) => `${r.resourceId}|${r.metric}|${r.planId}|${r.userId}|${r.quantity}`;
    expect(
      stored
        .map((r) =>
          shape({
            resourceId: r.resource_id,
            metric: r.metric,
            planId: r.plan_id,
            userId: r.user_id,
            quantity: r.quantity,
          }),
        )
        .sort(),
    ).toEqual(rebuilt.map(shape).sort());
    expect(stored).toHaveLength(7);
  });

  it('closes an hour once, closed twice or twice at the same moment', async () => {
    const H = pastHour();
    const instance = await at(t.db, minutesInto(H, 10), (trx) =>
      newInstance(trx, t.client.id, t.locationId, plan.id),
    );
    const outcomes = await Promise.all([closeHour(t.deps, H), closeHour(t.deps, H), closeHour(t.deps, H)]);
    expect(outcomes.filter((o) => o.closed)).toHaveLength(1);
    expect(await closeHour(t.deps, H)).toEqual({ closed: false });
    expect(await closedHours(H)).toBe(1);
    expect(await storedOf(t.db, H, [instance.id])).toEqual({
      [`${instance.id} instance.running ${plan.code}`]: '0.833333',
    });
  });

  it('keeps a closed hour as it is: its records refuse a change, and a late change counts later', async () => {
    const H = pastHour();
    const instance = await at(t.db, minutesInto(H, -5), (trx) =>
      newInstance(trx, t.client.id, t.locationId, null),
    );
    await closeHour(t.deps, H);
    const before = await storedOf(t.db, H, [instance.id]);
    await expect(
      t.db.updateTable('usage_records').set({ unit: 'x' }).where('resource_id', '=', instance.id).execute(),
    ).rejects.toThrow(/immutable/);
    await expect(
      t.db.deleteFrom('usage_records').where('resource_id', '=', instance.id).execute(),
    ).rejects.toThrow(/immutable/);
    await expect(closeHour(t.deps, addHours(new Date(), 0))).rejects.toThrow(/has not ended/);
    expect(await storedOf(t.db, H, [instance.id])).toEqual(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHour } from '../../services/usage/close-hours.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { at, minutesInto, newInstance, pastHour, storedOf } from './history.js';

/**
 * A closing and a change that cross (docs/usage.md "Closing"): the closing waits for a change
 * still being written, so the hour it closes holds it.
 */
let t: Stack;
let plan: { id: string; code: string };
beforeAll(async () => {
  t = await startStack();
  plan = (await seed.catalog(t.db)).plan;
});
afterAll(() => t.close());

describe('a closing beside a change', () => {
  it('waits for a change still being written before it reads the history', async () => {
    const H = pastHour();
    const instance = await at(t.db, minutesInto(H, -5), (trx) =>
      newInstance(trx, t.client.id, t.locationId, plan.id),
    );
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writer = at(t.db, minutesInto(H, 30), async (trx) => {
      await trx.updateTable('instances').set({ status: 'stopped' }).where('id', '=', instance.id).execute();
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    let closedYet = false;
    const closing = closeHour(t.deps, H).then((outcome) => {
      closedYet = true;
      return outcome;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(closedYet).toBe(false);
    release();
    await writer;
    expect(await closing).toMatchObject({ closed: true });
    expect(await storedOf(t.db, H, [instance.id])).toEqual({
      [`${instance.id} instance.running ${plan.code}`]: '0.500000',
      [`${instance.id} instance.stopped ${plan.code}`]: '0.500000',
    });
  });
});

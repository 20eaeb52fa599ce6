import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeSamples } from '../../db/repositories/metrics/metrics.js';
import { closeHour, rebuildHour } from '../../services/usage/close-hours.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { addHours, at, minutesInto, newInstance, pastHour, storedOf } from './history.js';

/**
 * Traffic per hour (docs/usage.md "Traffic"): what the agents' samples added to the bandwidth
 * counters, counted in the hour it was stored, once, however a closing and samples cross.
 */
let t: Stack;
let hypervisorId: string;
beforeAll(async () => {
  t = await startStack();
  hypervisorId = (await seed.hypervisor(t.db, t.locationId)).id;
});
afterAll(() => t.close());

const sample = (instanceId: string, sampledAt: Date, rx: number, tx: number) => ({
  instanceId,
  sampledAt,
  cpuPercent: 1,
  memoryUsedMb: 100,
  diskReadBytes: 0,
  diskWriteBytes: 0,
  netRxBytes: rx,
  netTxBytes: tx,
});

describe('traffic in an hour', () => {
  it('counts each sample once, in the hour it was stored, a closing and samples crossing', async () => {
    const H = pastHour();
    const instance = await at(t.db, minutesInto(H, -5), (trx) =>
      newInstance(trx, t.client.id, t.locationId, null, hypervisorId),
    );
    const store = (when: Date, samples: ReturnType<typeof sample>[]) =>
      at(t.db, when, (trx) => storeSamples(trx, hypervisorId, samples));
    const first = sample(instance.id, minutesInto(H, 9), 1000, 500);
    await store(minutesInto(H, 10), [first]);
    // Sent again (an agent retrying) beside a new one: the first counts once.
    await store(minutesInto(H, 20), [first, sample(instance.id, minutesInto(H, 19), 300, 200)]);

    // A batch still being stored when the closing begins: the closing waits for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writer = at(t.db, minutesInto(H, 50), async (trx) => {
      await storeSamples(trx, hypervisorId, [sample(instance.id, minutesInto(H, 49), 7, 3)]);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = closeHour(t.deps, H);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await writer;
    expect(await closing).toMatchObject({ closed: true });

    // A sample dated in the closed hour that comes after it closed counts in the hour it came in.
    await store(minutesInto(H, 65), [sample(instance.id, minutesInto(H, 30), 40, 60)]);
    await closeHour(t.deps, addHours(H, 1));

    const inHour = (hour: Date) => storedOf(t.db, hour, [instance.id]);
    expect(await inHour(H)).toMatchObject({
      [`${instance.id} traffic.inbound null`]: '1307.000000',
      [`${instance.id} traffic.outbound null`]: '703.000000',
    });
    expect(await inHour(addHours(H, 1))).toMatchObject({
      [`${instance.id} traffic.inbound null`]: '40.000000',
      [`${instance.id} traffic.outbound null`]: '60.000000',
    });
    // The counters and the records agree: nothing lost, nothing twice.
    const counters = await t.db
      .selectFrom('instance_bandwidth')
      .select(['inbound_bytes', 'outbound_bytes'])
      .where('instance_id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(counters).toEqual({ inbound_bytes: '1347', outbound_bytes: '763' });

    // Rebuilt from the history alone, the hour is what was stored.
    const rebuilt = (await rebuildHour(t.db, H)).filter((r) => r.resourceId === instance.id);
    expect(
      Object.fromEntries(rebuilt.map((r) => [`${r.resourceId} ${r.metric} ${r.planCode}`, r.quantity])),
    ).toEqual(await inHour(H));
  });
});

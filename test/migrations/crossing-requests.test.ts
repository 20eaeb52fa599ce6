import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setHypervisorStatus } from '../../db/repositories/hypervisors/hypervisors.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Migration requests crossing between two hypervisors at once, one from each to the other: each
 * request's transaction checks the room on its target under a lock on the target's row, after
 * its rows that name both hypervisors were written. With that lock FOR UPDATE, the two waited on
 * each other's foreign-key locks and PostgreSQL killed one as a deadlock: a 500 (found by the soak,
 * bench/soak). No worker runs: the requests are what is tested.
 */
let t: Stack;
beforeAll(async () => {
  // Every pair's moves stay under way (no worker): room for twenty out of each host at once.
  t = await startStack({ config: { MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR: '64' } });
});
afterAll(() => t.close());

describe('migration requests crossing between two hypervisors', () => {
  it('are each accepted, never a deadlock: twenty pairs, each pair at once', async () => {
    // Room for every instance and every hold: a refusal for want of room is not what this is about.
    const host = () => seed.hypervisor(t.db, t.locationId, { cpuCores: 128 });
    const [a, b] = [await host(), await host()];
    for (const h of [a, b]) await setHypervisorStatus(t.db, h.id, 'online');
    const on = (hypervisorId: string) =>
      seed.instance(t.db, { userId: t.client.id, locationId: t.locationId, hypervisorId });
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      const [fromA, fromB] = [await on(a.id), await on(b.id)];
      const answers = await Promise.all([
        t.call(t.admin, 'POST', `/admin/cloudsvc/instances/${fromA.id}/migrations`, {
          target_hypervisor_uuid: b.id,
          mode: 'COLD',
        }),
        t.call(t.admin, 'POST', `/admin/cloudsvc/instances/${fromB.id}/migrations`, {
          target_hypervisor_uuid: a.id,
          mode: 'COLD',
        }),
      ]);
      statuses.push(...answers.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(40).fill(202));
  });
});

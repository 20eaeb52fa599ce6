import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { guestPid } from '../../agent/drivers/qemu/guests/guest-process.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { eventually } from '../support/eventually.js';
import { qemuHosts, ticksPast } from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The panel believes the host, not its records: a guest's QEMU process killed behind the panel's
 * back is reported by the QEMU driver's inventory, and the instance stops being `running`.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu skipped: ${missing}`);

describe.runIf(!missing)('the inventory of a QEMU host', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  beforeAll(async () => {
    env = await startStack({
      agents: true,
      // A heartbeat (and a look at the guests) every 2 s; a record still for 1 s may be corrected.
      config: { GUEST_INVENTORY_SETTLE_MS: '1000', HYPERVISOR_UNREACHABLE_AFTER_MS: '6000' },
    });
    hosts = qemuHosts(env);
  });
  afterAll(async () => {
    hosts?.killGuests();
    await env?.close();
  });

  it('shows a guest whose QEMU process was killed as stopped, and running again once started', async () => {
    const host = await hosts.host((await seed.location(env.db)).id);
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 1);
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');

    process.kill(guestPid(host.state().instances[instance.id]!.dir)!, 'SIGKILL');
    await eventually(
      async () => (await findInstance(env.db, instance.id))?.status === 'stopped',
      30_000,
      'the panel to see the guest stopped',
    );
    expect(await findInstance(env.db, instance.id)).toMatchObject({ guest_drift: 'stopped' });
    expect(host.guestRunning(instance.id)).toBe(false);

    // The customer starts it again: the guest runs, and the next inventory clears the flag.
    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);
    expect(host.guestRunning(instance.id)).toBe(true);
    await eventually(
      async () => (await findInstance(env.db, instance.id))?.guest_drift === null,
      90_000,
      'the flag to clear',
    );
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
  }, 180_000);
});

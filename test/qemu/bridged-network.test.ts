import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgedNetworkMissing, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { guestMac } from '../../agent/drivers/qemu/network/guest-network.js';
import { tapName } from '../../agent/drivers/qemu/network/host-network.js';
import { bridgedHost, PUBLIC_POOL, publicAddress } from '../support/bridged-host.js';
import { eventually } from '../support/eventually.js';

const run = promisify(execFile);

/**
 * The bridged network with packets: guests' taps on a bridge in a namespace of the test's own,
 * the namespace playing the provider's router (it carries the pools' gateways), and what reaches
 * a guest or not seen from there with a real HTTP client (curl). The guest
 * serves its hostname on ports 80 and 8080 and a MiB at /blob.
 */
const missing = qemuGuestsMissing() ?? bridgedNetworkMissing();
if (missing) console.warn(`test/qemu/bridged-network skipped: ${missing}`);

const FLOATING = { address: '203.0.113.5', prefix: 24, gateway: '203.0.113.1' };

describe.runIf(!missing)('the bridged network of QEMU guests', () => {
  const host = bridgedHost('bridged');
  const { task, consoleOf, fetchFromRouter, answers, guest } = host;
  beforeAll(() => host.start());
  afterAll(() => host.stop());

  const networkOf = (revision: number, host: number, floating: boolean) => ({
    revision,
    addresses: [
      { ...publicAddress(host), family: 4, primary: true, floating: false },
      ...(floating ? [{ ...FLOATING, family: 4, primary: false, floating: true }] : []),
    ],
    nics: [],
  });

  it('filters on the guest’s tap: a closed port drops, an opened one answers, replies to the guest’s own flows pass; an older revision changes nothing; the delete takes its chains away', async () => {
    const id = await guest('walled.example.test', 20);
    const open80 = {
      direction: 'inbound',
      protocol: 'tcp',
      port_from: 80,
      port_to: 80,
      cidr: '0.0.0.0/0',
      action: 'accept',
    };
    expect(
      await task('firewall.apply', { instance_id: id, revision: 1, enabled: true, rules: [open80] }),
    ).toEqual({
      revision: 1,
    });
    expect((await fetchFromRouter('198.51.100.20', 80))?.trim()).toBe('walled.example.test');
    expect(await fetchFromRouter('198.51.100.20', 8080)).toBeUndefined();
    // The guest's own ping of its gateway comes back through the closed firewall.
    expect(await host.reaches(id, PUBLIC_POOL.gateway)).toBe(true);

    const open8080 = { ...open80, port_from: 8000, port_to: 8100 };
    await task('firewall.apply', { instance_id: id, revision: 2, enabled: true, rules: [open80, open8080] });
    expect((await fetchFromRouter('198.51.100.20', 8080))?.trim()).toBe('walled.example.test');
    // Revision 1 delivered late: revision 2 stays.
    expect(
      await task('firewall.apply', { instance_id: id, revision: 1, enabled: true, rules: [open80] }),
    ).toEqual({
      revision: 2,
    });
    expect((await fetchFromRouter('198.51.100.20', 8080))?.trim()).toBe('walled.example.test');
    // Disabled, the rules kept by the panel: nothing is filtered.
    await task('firewall.apply', { instance_id: id, revision: 3, enabled: false, rules: [open80] });
    expect((await fetchFromRouter('198.51.100.20', 8080))?.trim()).toBe('walled.example.test');

    await task('instance.delete', { instance_id: id });
    const { stdout } = await run('ip', [
      'netns',
      'exec',
      host.namespace,
      'nft',
      'list',
      'table',
      'bridge',
      'cloudsvc',
    ]);
    expect(stdout).not.toContain(tapName(host.stateDir, id, 0));
  }, 180_000);

  it('moves a floating address: it answers on its first guest, then on the one it moved to; counts the bytes a guest sent', async () => {
    const first = await guest('first.example.test', 30);
    const second = await guest('second.example.test', 31);
    expect(await task('network.apply', { instance_id: first, ...networkOf(1, 30, true) })).toEqual({
      revision: 1,
    });
    expect((await answers(FLOATING.address, 80)).trim()).toBe('first.example.test');

    // The move: off the first, onto the second, which announces it.
    await task('network.apply', { instance_id: first, ...networkOf(2, 30, false) });
    await task('network.apply', { instance_id: second, ...networkOf(1, 31, true) });
    await eventually(
      async () =>
        (await fetchFromRouter(FLOATING.address, 80))?.trim() === 'second.example.test' || undefined,
      30_000,
      'the floating address answered by the second guest',
    );
    // Applied again (a task delivered twice): nothing changes.
    expect(await task('network.apply', { instance_id: second, ...networkOf(1, 31, true) })).toEqual({
      revision: 1,
    });
    expect(consoleOf(second)).toContain(
      `guest: network eth0 ${guestMac(second)} 198.51.100.31/24,203.0.113.5/32`,
    );

    // Bandwidth: what the first guest sent (a MiB fetched from it) is counted on its tap.
    host.driver.sample(new Date());
    expect((await fetchFromRouter('198.51.100.30', 80, '/blob'))?.length).toBe(1024 * 1024);
    let sent = 0;
    await eventually(
      async () => {
        sent += host.driver.sample(new Date()).find((s) => s.instance_uuid === first)?.net_tx_bytes ?? 0;
        return sent >= 1024 * 1024 || undefined;
      },
      15_000,
      'a MiB counted as sent',
    );
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  }, 180_000);
});

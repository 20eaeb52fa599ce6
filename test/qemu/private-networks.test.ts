import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgedNetworkMissing, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import { privateBridge } from '../../agent/drivers/qemu/network/private-nics.js';
import { bridgedHost, publicAddress } from '../support/bridged-host.js';
import { eventually } from '../support/eventually.js';

const run = promisify(execFile);

/**
 * Private networks with packets: each network a bridge of its own in the test's namespace, a
 * running guest's NIC hot-plugged into a PCIe slot (and a stopped guest's there at its boot), and
 * whether one guest reaches another asked of the guest itself (its own ping, over its channel).
 */
const missing = qemuGuestsMissing() ?? bridgedNetworkMissing();
if (missing) console.warn(`test/qemu/private-networks skipped: ${missing}`);

let macs = 0;
const nic = (networkId: string, address: string) => ({
  network_id: networkId,
  mac: `02:00:00:00:00:${(++macs).toString(16).padStart(2, '0')}`,
  address,
  prefix: 24,
});

describe.runIf(!missing)('private networks of QEMU guests', () => {
  const host = bridgedHost('private');
  const { task, guest } = host;
  beforeAll(() => host.start());
  afterAll(() => host.stop());

  const apply = (id: string, hostNumber: number, revision: number, nics: ReturnType<typeof nic>[]) =>
    task('network.apply', {
      instance_id: id,
      revision,
      addresses: [{ ...publicAddress(hostNumber), family: 4, primary: true, floating: false }],
      nics,
    });
  /** The devices the guest's QEMU holds, by id. */
  const devices = (id: string) =>
    Qmp.with(guestFiles(host.driver.guestDir(id)!).qmp, async (qmp) =>
      (await qmp.execute<{ name: string }[]>('qom-list', { path: '/machine/peripheral' })).map((d) => d.name),
    );
  const bridges = async () => {
    const { stdout } = await run('ip', ['-n', host.namespace, '-j', 'link', 'show', 'type', 'bridge']);
    return (JSON.parse(stdout) as { ifname: string }[]).map((l) => l.ifname).sort();
  };
  const reachesSoon = (id: string, address: string) =>
    eventually(async () => (await host.reaches(id, address)) || undefined, 30_000, `a ping of ${address}`);

  it('joins running guests by hot-plugged NICs: guests of one network reach each other, one of another network with the same range does not; a repeat changes nothing; a NIC taken out is gone and its empty bridge with it', async () => {
    const [a, b, c] = await Promise.all([
      guest('a.example.test', 50),
      guest('b.example.test', 51),
      guest('c.example.test', 52),
    ]);
    const [one, other] = [randomUUID(), randomUUID()];
    const [nicA, nicB, nicC] = [nic(one, '10.50.0.2'), nic(one, '10.50.0.3'), nic(other, '10.50.0.4')];
    // Three guests told at once.
    expect(
      await Promise.all([apply(a, 50, 1, [nicA]), apply(b, 51, 1, [nicB]), apply(c, 52, 1, [nicC])]),
    ).toEqual([{ revision: 1 }, { revision: 1 }, { revision: 1 }]);
    expect(host.consoleOf(a)).toMatch(new RegExp(`guest: network \\S+ ${nicA.mac} 10\\.50\\.0\\.2/24`));
    expect(await devices(a)).toContain('pnic1');
    expect(await reachesSoon(a, '10.50.0.3')).toBe(true);
    expect(await reachesSoon(b, '10.50.0.2')).toBe(true);
    expect(await host.reaches(c, '10.50.0.2')).toBe(false);
    expect(await host.reaches(a, '10.50.0.4')).toBe(false);
    expect(await bridges()).toEqual(['public', privateBridge(one), privateBridge(other)].sort());

    // Delivered again: nothing is plugged twice.
    expect(await apply(a, 50, 1, [nicA])).toEqual({ revision: 1 });
    expect((await devices(a)).filter((d) => d.startsWith('pnic'))).toEqual(['pnic1']);
    expect(host.driver.snapshot().instances[a]?.plugged).toEqual([
      { slot: 1, mac: nicA.mac, network_id: one },
    ]);

    // Taken out of a: the guest lets go of it, b no longer reaches it.
    expect(await apply(a, 50, 2, [])).toEqual({ revision: 2 });
    expect(await devices(a)).not.toContain('pnic1');
    expect(host.driver.snapshot().instances[a]?.plugged).toEqual([]);
    expect(await host.reaches(b, '10.50.0.2')).toBe(false);
    // The other network's last guest leaves: its bridge goes; the first keeps b's.
    await apply(c, 52, 2, []);
    expect(await bridges()).toEqual(['public', privateBridge(one)].sort());
  }, 240_000);

  it('boots a stopped guest with the NICs put in while it was stopped, in the slots the state gives them, the lowest free one reused', async () => {
    const [d, e] = await Promise.all([guest('d.example.test', 60), guest('e.example.test', 61)]);
    const [one, two, three] = [randomUUID(), randomUUID(), randomUUID()];
    const [first, second, peer] = [nic(one, '10.60.0.2'), nic(two, '10.61.0.2'), nic(one, '10.60.0.3')];
    expect(await task('instance.power', { instance_id: d, action: 'stop' })).toEqual({
      power_state: 'stopped',
    });
    await apply(d, 60, 1, [first, second]);
    await apply(e, 61, 1, [peer]);
    // The first taken out, another put in: it takes the slot the first left.
    const third = nic(three, '10.62.0.2');
    await apply(d, 60, 2, [second, third]);
    expect(host.driver.snapshot().instances[d]?.plugged).toEqual([
      { slot: 2, mac: second.mac, network_id: two },
      { slot: 1, mac: third.mac, network_id: three },
    ]);
    // Back on network one, in the third slot free from the start; booted with all three.
    const back = nic(one, '10.60.0.2');
    await apply(d, 60, 3, [second, third, back]);
    expect(await task('instance.power', { instance_id: d, action: 'start' })).toMatchObject({
      power_state: 'running',
    });
    expect((await devices(d)).filter((x) => x.startsWith('pnic')).sort()).toEqual([
      'pnic1',
      'pnic2',
      'pnic3',
    ]);
    await eventually(
      () => host.consoleOf(d).includes(`${back.mac} 10.60.0.2/24`) || undefined,
      60_000,
      'the guest to set up its private NICs from its seed',
    );
    expect(await reachesSoon(e, '10.60.0.2')).toBe(true);
  }, 240_000);
});

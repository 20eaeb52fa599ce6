import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SetupHandoffBody } from '../../agent/drivers/qemu/migration/transfer-bodies.js';
import { privateNicArguments, privateNicChanges } from '../../agent/drivers/qemu/network/private-nics.js';

/** The slots of private NICs, which a live migration's target must repeat exactly. */
const [one, two] = [randomUUID(), randomUUID()];
const wanted = (network_id: string, mac: string) => ({ network_id, mac, address: '10.0.0.2', prefix: 24 });

describe('private NIC slots', () => {
  it('keeps the NICs still wanted in their slots, takes out the others, puts new ones in the lowest free slots', () => {
    const plugged = [
      { slot: 1, mac: '02:00:00:00:00:01', network_id: one },
      { slot: 2, mac: '02:00:00:00:00:02', network_id: one },
    ];
    expect(
      privateNicChanges(plugged, [
        wanted(one, '02:00:00:00:00:02'),
        wanted(two, '02:00:00:00:00:03'),
        wanted(two, '02:00:00:00:00:04'),
      ]),
    ).toEqual({
      unplug: [plugged[0]],
      plug: [
        { slot: 1, mac: '02:00:00:00:00:03', network_id: two },
        { slot: 3, mac: '02:00:00:00:00:04', network_id: two },
      ],
    });
    // The same MAC on another network is another NIC, taken out first: it goes back into its slot.
    expect(privateNicChanges(plugged.slice(0, 1), [wanted(two, '02:00:00:00:00:01')])).toEqual({
      unplug: [plugged[0]],
      plug: [{ slot: 1, mac: '02:00:00:00:00:01', network_id: two }],
    });
    expect(
      privateNicChanges(
        plugged,
        plugged.map((p) => wanted(p.network_id, p.mac)),
      ),
    ).toEqual({
      unplug: [],
      plug: [],
    });
  });

  it('gives a guest every empty slot at boot and its NICs in theirs', () => {
    const args = privateNicArguments([{ slot: 3, mac: '02:00:00:00:00:09', network_id: one, tap: 'cs0123' }]);
    expect(args.filter((a) => a.startsWith('pcie-root-port'))).toHaveLength(8);
    expect(args).toContain('virtio-net-pci,id=pnic3,mac=02:00:00:00:00:09,netdev=pnet3,bus=rp3');
    expect(args).toContain('tap,id=pnet3,ifname=cs0123,script=no,downscript=no');
  });

  it('refuses a handoff with two NICs in one slot or a slot the guest has not, and takes one without NICs', () => {
    const handoff = { image: 'busybox', addresses: null, seed: null };
    const nic = { slot: 1, mac: '02:00:00:00:00:01', network_id: one };
    expect(
      SetupHandoffBody.safeParse({ ...handoff, plugged: [nic, { ...nic, mac: '02:00:00:00:00:02' }] })
        .success,
    ).toBe(false);
    expect(SetupHandoffBody.safeParse({ ...handoff, plugged: [{ ...nic, slot: 9 }] }).success).toBe(false);
    expect(SetupHandoffBody.safeParse(handoff).success).toBe(true);
  });
});

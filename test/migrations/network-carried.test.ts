import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * A migrated instance keeps its network: its extra addresses, its NICs on private networks and
 * its firewall are on the hypervisor it lands on, at the revisions the panel holds, and the next
 * change goes there.
 */
let t: BackupStack;
beforeAll(async () => {
  // The source's copy is removed at once after a move.
  t = await startBackupStack({ MIGRATION_SOURCE_RETENTION_MS: '0' });
});
afterAll(() => t.close());

const migrate = (instanceId: string, targetId: string) =>
  t.env.admin.call('POST', `/admin/cloudsvc/instances/${instanceId}/migrations`, {
    target_hypervisor_uuid: targetId,
    mode: 'AUTO',
  });

/** The instance's network and firewall as one hypervisor holds them. */
const heldBy = (agent: BackupStack['hosts'][number]['agent'], instanceId: string) => {
  const guest = agent.hypervisor().instances[instanceId];
  return {
    addresses: guest?.network?.addresses.map((a) => a.address).sort(),
    nics: guest?.network?.nics.map((n) => `${n.address}@${n.network_id}`),
    firewall: guest?.firewall && { enabled: guest.firewall.enabled, rules: guest.firewall.rules },
    revisions: [guest?.network?.revision, guest?.firewall?.revision],
  };
};

async function moved(instanceId: string, to: BackupStack['hosts'][number]) {
  // A move back is taken at once, beside the last move's retained copy (docs/migration.md).
  const res = await migrate(instanceId, to.hypervisor.id);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await eventually(
    async () =>
      (await t.settled(instanceId)) && to.agent.hypervisor().instances[instanceId]?.power_state === 'running',
    60_000,
    'the instance to run on its new hypervisor',
  );
}

describe('a migration carries the network', () => {
  it('addresses, private NICs and the firewall arrive with the instance, there and back', async () => {
    const { id } = await t.instance();
    expect((await t.api('POST', `/${id}/network/ips`, { family: 4 })).status).toBe(202);
    await t.settled(id);
    const network = await t.api('POST', '/private-networks', {
      name: 'carried',
      location: t.location.code,
      cidr: '10.77.0.0/24',
    });
    expect(network.status).toBe(201);
    expect(
      (await t.api('POST', `/private-networks/${network.body.attributes.uuid}/attach`, { instance: id }))
        .status,
    ).toBe(202);
    await t.settled(id);
    const rules = [
      { direction: 'inbound', protocol: 'tcp', port: '22', cidr: '0.0.0.0/0', action: 'accept' },
    ];
    expect((await t.api('PUT', `/${id}/firewall`, { enabled: true, rules })).status).toBe(202);
    await t.settled(id);

    const source = t.hosts.find((h) => h.agent.hypervisor().instances[id])!;
    const target = t.hosts.find((h) => h !== source)!;
    const before = heldBy(source.agent, id);
    expect(before.addresses).toHaveLength(2);
    expect(before.nics).toEqual([`10.77.0.1@${network.body.attributes.uuid}`]);
    expect(before.firewall).toMatchObject({ enabled: true, rules: [{ protocol: 'tcp', port_from: 22 }] });

    await moved(id, target);
    expect(heldBy(target.agent, id)).toEqual(before);
    const listed = (await t.api('GET', `/${id}/network/ips`)).body.data.map(
      (a: Body) => a.attributes.address,
    );
    expect(heldBy(target.agent, id).addresses).toEqual(listed.sort());

    // The next change goes to where the instance is now.
    expect((await t.api('POST', `/${id}/network/ips`, { family: 4 })).status).toBe(202);
    await t.settled(id);
    const after = heldBy(target.agent, id);
    expect(after.addresses).toHaveLength(3);
    expect((await t.api('GET', `/${id}/network`)).body.attributes).toMatchObject({ in_sync: true });

    // And back again: the source's retained copy is replaced by what the instance has now.
    await moved(id, source);
    expect(heldBy(source.agent, id)).toEqual(after);
  });
});

describe('a migration’s network plan', () => {
  it('lists every address, floating IP and private NIC that moves, as the Client API lists them', async () => {
    const { id } = await t.instance();
    expect((await t.api('POST', `/${id}/network/ips`, { family: 4 })).status).toBe(202);
    await t.settled(id);
    const network = await t.api('POST', '/private-networks', {
      name: 'planned',
      location: t.location.code,
      cidr: '10.78.0.0/24',
    });
    expect(network.status).toBe(201);
    const networkId = network.body.attributes.uuid;
    expect((await t.api('POST', `/private-networks/${networkId}/attach`, { instance: id })).status).toBe(202);
    await t.settled(id);
    const floating = await t.env.admin.call('POST', '/api/application/cloudsvc/floating-ips', {
      user: t.env.client.id,
      location: t.location.code,
    });
    expect(floating.status, JSON.stringify(floating.body)).toBe(201);
    const floatingIp = floating.body.attributes;
    expect((await t.api('POST', `/floating-ips/${floatingIp.uuid}/attach`, { instance: id })).status).toBe(
      202,
    );
    await t.settled(id);

    const addresses = (await t.api('GET', `/${id}/network/ips`)).body.data.map(
      (a: Body) => a.attributes.address,
    );
    expect(addresses).toHaveLength(3);
    expect(addresses).toContain(floatingIp.address);
    const source = t.hosts.find((h) => h.agent.hypervisor().instances[id])!;
    const target = t.hosts.find((h) => h !== source)!;

    const requested = await migrate(id, target.hypervisor.id);
    expect(requested.status, JSON.stringify(requested.body)).toBe(202);
    const plan = requested.body.attributes.network_plan;
    expect([...plan.addresses].sort()).toEqual([...addresses].sort());
    expect(plan.floating_ips).toEqual([floatingIp.address]);
    expect(plan.private_nics).toEqual([
      {
        network_uuid: networkId,
        address: '10.78.0.1',
        mac: expect.stringMatching(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/),
      },
    ]);
    expect(plan.interruption_expected).toBe(true);
    const shown = await t.env.admin.call(
      'GET',
      `/admin/cloudsvc/migrations/${requested.body.attributes.uuid}`,
    );
    expect(shown.body.attributes.network_plan).toEqual(plan);
    await eventually(
      async () => (await t.settled(id)) && target.agent.hypervisor().instances[id]?.power_state === 'running',
      60_000,
      'the instance to run on its new hypervisor',
    );
  });
});

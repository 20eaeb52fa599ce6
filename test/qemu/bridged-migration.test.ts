import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgedNetworkMissing, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { tapName } from '../../agent/drivers/qemu/network/host-network.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { requestMigration } from '../../services/migrations/request.js';
import { fetchIn, guestReaches } from '../support/bridged-host.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { migrationEnd } from '../support/migrations.js';
import {
  type QemuHost,
  type qemuHosts,
  startQemuMigrationStack,
  stopQemuStack,
  ticksPast,
} from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import type { Stack } from '../support/stack.js';

/**
 * A guest on the bridged network moved live through the panel's migration workflow, between two
 * agent processes whose guests share one namespace (one location's networks): its address, its
 * firewall and its NIC on a private network are where it lands, seen with packets.
 */
const missing = qemuGuestsMissing() ?? bridgedNetworkMissing();
if (missing) console.warn(`test/qemu/bridged-migration skipped: ${missing}`);

describe.runIf(!missing)('a bridged QEMU guest moved live', () => {
  const namespace = `cs-test-${randomBytes(3).toString('hex')}`;
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let admin: { type: 'admin'; userId: string };
  beforeAll(async () => {
    ({ env, hosts } = await startQemuMigrationStack(0));
    admin = { type: 'admin', userId: (await seed.user(env.db, { admin: true })).id };
  });
  afterAll(async () => {
    await stopQemuStack({ env, hosts });
    if (existsSync(`/run/netns/${namespace}`)) execFileSync('ip', ['netns', 'del', namespace]);
  });

  const api = async (method: string, path: string, body?: unknown, status = 202): Promise<Body> => {
    const res = await env.client.call(method, `/api/client/cloud${path}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  const dirOn = (host: QemuHost, instanceId: string) => host.state().instances[instanceId]!.dir;
  const reachesSoon = (host: QemuHost, instanceId: string, address: string) =>
    eventually(
      async () => (await guestReaches(dirOn(host, instanceId), address)) || undefined,
      30_000,
      `a ping of ${address}`,
    );

  it('keeps its address (HTTP answers on the target), its firewall (a closed port stays closed, on the target’s tap, the source’s chains gone once it is cleaned up) and its private NIC (its peer and it reach each other) with no boot', async () => {
    const location = await seed.location(env.db);
    // A range of this run's own: pools never overlap, and other files draw theirs from the same database.
    await seed.uniqueIpv4Pool(env.db, location.id);
    const bridged = { AGENT_QEMU_NETWORK: 'bridged', AGENT_QEMU_NETNS: namespace };
    const source = await hosts.host(location.id, bridged);
    const target = await hosts.host(location.id, bridged);
    const [instance, peer] = await Promise.all([hosts.instanceOn(source), hosts.instanceOn(target)]);

    await api('POST', `/${instance.id}/network/ips`, { family: 4 });
    await env.operationResult(instance.id);
    const address: string = (await api('GET', `/${instance.id}/network/ips`, undefined, 200)).data[0]
      .attributes.address;
    const web = { direction: 'inbound', protocol: 'tcp', port: '80', cidr: '0.0.0.0/0', action: 'accept' };
    await api('PUT', `/${instance.id}/firewall`, { enabled: true, rules: [web] });
    await env.operationResult(instance.id);
    const networkId: string = (
      await api(
        'POST',
        '/private-networks',
        { name: 'moved', location: location.code, cidr: '192.168.70.0/24' },
        201,
      )
    ).attributes.uuid;
    for (const member of [instance, peer]) {
      await api('POST', `/private-networks/${networkId}/attach`, { instance: member.id });
      await env.operationResult(member.id);
    }
    const nics: Body[] = (await api('GET', `/private-networks/${networkId}`, undefined, 200)).attributes.nics;
    const privateOf = (id: string) => nics.find((n) => n.instance === id)!.address as string;

    const before = async (host: QemuHost) => {
      expect((await eventually(() => fetchIn(namespace, address, 80), 60_000, 'its HTTP')).trim()).toBe(
        instance.hostname,
      );
      expect(await fetchIn(namespace, address, 8080)).toBeUndefined();
      expect(await reachesSoon(host, instance.id, privateOf(peer.id))).toBe(true);
    };
    await before(source);
    const plugged = source.state().instances[instance.id]!.plugged;
    expect(plugged).toHaveLength(1);

    const { migrationId, workflowId } = await requestMigration(env.deps, admin, {
      instanceId: instance.id,
      targetId: target.hypervisor.id,
      mode: 'LIVE_REQUIRED',
      correlationId: null,
    });
    await eventually(
      async () => ((await findMigration(env.db, migrationId))?.state === 'COMPLETED' ? true : undefined),
      120_000,
      'the migration to complete',
    );
    const last = Math.max(...source.ticks(instance.id));
    await ticksPast(target, instance.id, last + 1);
    expect(target.console(instance.id)).not.toContain('guest: booted');
    expect(target.state().instances[instance.id]!.plugged).toEqual(plugged);

    await before(target);
    expect(await reachesSoon(target, peer.id, privateOf(instance.id))).toBe(true);
    // The source's copy cleaned up: its chains are gone with it, the target's hold.
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    const table = execFileSync(
      'ip',
      ['netns', 'exec', namespace, 'nft', 'list', 'table', 'bridge', 'cloudsvc'],
      {
        encoding: 'utf8',
      },
    );
    expect(table).not.toContain(`in-${tapName(source.agent.stateDir, instance.id, 0)}`);
    expect(table).toContain(`in-${tapName(target.agent.stateDir, instance.id, 0)}`);
  }, 300_000);
});

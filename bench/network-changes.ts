/**
 * Network changes of one instance with a zero-latency driver, each through the Client API and
 * counted from sending the request to seeing the change applied on the agent: the instance settled
 * and its network (or firewall) revision confirmed by the hypervisor. Each round attaches an
 * address (measured) and detaches it again (not measured, so the instance stays under its address
 * limit), then replaces the firewall's rules (measured), alternating two rule sets. "Applied" is
 * seen by polling the instance row every 2 ms on a connection of the bench's own.
 */

import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import { insertIpPool } from '../db/repositories/network/ip-pools.js';
import type { DB } from '../db/schema.js';
import { runningInstance } from './bench-instance.js';
import type { ApiRounds } from './parts/api-rounds.js';

const POLL_INTERVAL_MS = 2;
const SETTLE_LIMIT_MS = 10_000;
/** Of the benchmarking range (RFC 2544), apart from the provisioning part's pool. */
const POOL = { cidr: '198.19.0.0/24', gateway: '198.19.0.1' };

export interface NetworkTimes {
  readonly attachMs: number[];
  readonly firewallMs: number[];
  readonly failures: string[];
}

const revisions = precompiled((db: Kysely<DB>, instanceId: string) =>
  db
    .selectFrom('instances')
    .select([
      'operation_id',
      'network_revision',
      'network_applied_revision',
      'firewall_revision',
      'firewall_applied_revision',
    ])
    .where('id', '=', instanceId),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until the instance has no operation and the hypervisor confirmed `set`'s revision; why not, else. */
async function applied(
  db: Database,
  instanceId: string,
  set: 'network' | 'firewall',
  failed: () => Promise<boolean>,
) {
  const deadline = performance.now() + SETTLE_LIMIT_MS;
  for (;;) {
    const [row] = await revisions(db, instanceId);
    if (row && row.operation_id === null) {
      if (await failed()) return 'the operation failed';
      const [wanted, confirmed] =
        set === 'network'
          ? [row.network_revision, row.network_applied_revision]
          : [row.firewall_revision, row.firewall_applied_revision];
      return confirmed >= wanted ? 'ok' : `revision ${confirmed} of ${wanted} applied`;
    }
    if (performance.now() >= deadline) return `not settled in ${SETTLE_LIMIT_MS / 1000} s`;
    await sleep(POLL_INTERVAL_MS);
  }
}

const RULE_SETS = [
  [{ direction: 'inbound', protocol: 'tcp', port: '22', cidr: '0.0.0.0/0', action: 'accept' }],
  [
    { direction: 'inbound', protocol: 'tcp', port: '443', cidr: '0.0.0.0/0', action: 'accept' },
    { direction: 'inbound', protocol: 'udp', port: '51820', cidr: '198.51.100.0/24', action: 'accept' },
  ],
];

export async function runNetworkChanges(input: ApiRounds): Promise<NetworkTimes> {
  const times: NetworkTimes = { attachMs: [], firewallMs: [], failures: [] };
  await insertIpPool(input.deps.db, {
    locationId: input.locationId,
    name: 'bench network',
    family: 4,
    ...POOL,
  });
  const instance = await runningInstance(input.deps, {
    name: 'bench-network',
    userId: input.userId,
    locationId: input.locationId,
    hypervisorId: input.hypervisorId,
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const t0 = performance.now();
    const response = await fetch(`${input.apiUrl}/api/client/cloud/${instance.id}${path}`, {
      method,
      headers: { Authorization: `Bearer ${input.clientKey}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => undefined)) as
      | { attributes?: { uuid?: string }; errors?: { code: string }[] }
      | undefined;
    return { t0, status: response.status, answer };
  };
  const lastFailed = async () => {
    const [row] = await input.pollDb
      .selectFrom('instance_operations')
      .select('state')
      .where('instance_id', '=', instance.id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .execute();
    return row?.state === 'failed';
  };
  const measure = async (
    what: string,
    set: 'network' | 'firewall',
    into: number[],
    request: Promise<Awaited<ReturnType<typeof call>>>,
  ) => {
    const { t0, status, answer } = await request;
    if (status !== 202) {
      times.failures.push(`${what}: ${status} ${answer?.errors?.[0]?.code ?? ''}`.trim());
      return undefined;
    }
    const outcome = await applied(input.pollDb, instance.id, set, lastFailed);
    if (outcome === 'ok') into.push(performance.now() - t0);
    else times.failures.push(`${what}: ${outcome}`);
    return answer;
  };

  for (let round = 0; round < input.rounds; round++) {
    const attached = await measure(
      'attach',
      'network',
      times.attachMs,
      call('POST', '/network/ips', { family: 4 }),
    );
    const addressId = attached?.attributes?.uuid;
    if (addressId) {
      await call('DELETE', `/network/ips/${addressId}`);
      await applied(input.pollDb, instance.id, 'network', async () => false);
    }
    const rules = RULE_SETS[round % RULE_SETS.length];
    await measure('firewall', 'firewall', times.firewallMs, call('PUT', '/firewall/rules', { rules }));
  }
  return times;
}

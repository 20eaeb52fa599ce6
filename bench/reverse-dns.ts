/**
 * Reverse DNS changes through the Client API, each counted from sending `PATCH …/rdns` to the
 * location's DNS server answering the new name to a PTR query, as a resolver would see it: a real
 * PowerDNS on loopback (Debian's pdns-server with SQLite, as the tests start it), published once
 * through its HTTP API and once by RFC 2136 updates signed with TSIG. The answer is polled every
 * 2 ms with a DNS query. One address of a location of the part's own, renamed round after round.
 */

import { allocateAddress } from '../db/repositories/network/ip-addresses.js';
import { insertIpPool } from '../db/repositories/network/ip-pools.js';
import { createLocation, editLocation } from '../services/catalogue/locations.js';
import { createProvider, setCredential } from '../services/providers/providers.js';
import type { PowerDns } from '../test/support/powerdns.js';
import { runningInstance } from './bench-instance.js';
import type { ApiRounds } from './parts/api-rounds.js';

const POLL_INTERVAL_MS = 2;
const PUBLISH_LIMIT_MS = 10_000;
/** Of the benchmarking range (RFC 2544), apart from the provisioning and network parts' pools. */
const POOL = { cidr: '198.18.200.0/24', gateway: '198.18.200.1' };
const ZONE = '200.18.198.in-addr.arpa.';

export interface ReverseDnsTimes {
  readonly powerdnsMs: number[];
  readonly rfc2136Ms: number[];
  readonly failures: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runReverseDnsChanges(input: ApiRounds, pdns: PowerDns): Promise<ReverseDnsTimes> {
  const times: ReverseDnsTimes = { powerdnsMs: [], rfc2136Ms: [], failures: [] };
  // The provider's HTTP API is on loopback, plain HTTP: allowed for the part's own calls only.
  const deps = { ...input.deps, config: { ...input.deps.config, PROVIDER_ALLOW_HTTP: true } };
  await pdns.createZone(ZONE);
  const tsigSecret = await pdns.allowUpdates(ZONE, 'bench-key');
  const api = await createProvider(deps, {
    name: 'bench pdns api',
    kind: 'dns',
    endpoint: pdns.endpoint,
    dns_zones: [ZONE],
  });
  await setCredential(deps, api.id, pdns.apiKey);
  const updates = await createProvider(deps, {
    name: 'bench pdns rfc2136',
    kind: 'dns',
    dns_protocol: 'rfc2136',
    endpoint: `dns://127.0.0.1:${pdns.dnsPort}`,
    dns_zones: [ZONE],
  });
  await setCredential(deps, updates.id, `hmac-sha256:bench-key:${tsigSecret}`);
  const location = await createLocation(deps, {
    code: 'bench-rdns',
    name: 'bench rDNS',
    dns_provider: api.id,
  });
  await insertIpPool(deps.db, { locationId: location.id, name: 'bench rdns', family: 4, ...POOL });
  const instance = await runningInstance(deps, {
    name: 'bench-rdns',
    userId: input.userId,
    locationId: input.locationId,
    hypervisorId: input.hypervisorId,
  });
  // An address of the part's location on the bench's instance: its owner names it as any other.
  const address = await allocateAddress(deps.db, {
    locationId: location.id,
    family: 4,
    instanceId: instance.id,
    userId: input.userId,
    role: 'additional',
  });
  if (!address) throw new Error('the rDNS pool gave no address');

  const change = async (name: string, into: number[], what: string) => {
    const t0 = performance.now();
    const response = await fetch(
      `${input.apiUrl}/api/client/cloud/${instance.id}/network/ips/${address.id}/rdns`,
      {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${input.clientKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ rdns: name }),
      },
    );
    await response.body?.cancel();
    if (response.status !== 200) return times.failures.push(`${what}: ${response.status}`);
    for (;;) {
      if ((await pdns.resolvePtr(address.address))[0] === name) return into.push(performance.now() - t0);
      if (performance.now() - t0 > PUBLISH_LIMIT_MS)
        return times.failures.push(`${what}: not answered in ${PUBLISH_LIMIT_MS / 1000} s`);
      await sleep(POLL_INTERVAL_MS);
    }
  };

  for (let round = 0; round < input.rounds; round++)
    await change(`api-${round}.bench.example`, times.powerdnsMs, 'PowerDNS API');
  await editLocation(deps, location.id, { dns_provider: updates.id });
  for (let round = 0; round < input.rounds; round++)
    await change(`update-${round}.bench.example`, times.rfc2136Ms, 'RFC 2136');
  return times;
}

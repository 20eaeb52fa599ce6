import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { ptrName } from '../../domain/dns/reverse-zones.js';
import { eventually } from './eventually.js';
import type { Reply } from './http.js';
import { type PowerDns, powerDnsInstalled } from './powerdns.js';

// What every DNS test sets up around its PowerDNS (powerdns.ts): whether it runs at all, the zone
// of its pool, a location served by a provider pointing at the server, and reading names back.

const PACKAGES = 'PowerDNS (pdns-server, pdns-backend-sqlite3, sqlite3)';

/**
 * Whether this file's PowerDNS tests run: skipped where PowerDNS is not installed, but a failure in
 * CI, which installs it (.ci/run).
 */
export function powerDnsPresent(): boolean {
  if (powerDnsInstalled()) return true;
  if (process.env.CI === 'true') throw new Error(`${PACKAGES} is missing: .ci/run installs it`);
  console.log(`${PACKAGES} is not installed: its DNS tests skipped`);
  return false;
}

/** The zone of a range: the labels of `address`'s PTR name past its `hostLabels` host labels. */
export const zoneAbove = (address: string, hostLabels: number) =>
  ptrName(address).split('.').slice(hostLabels).join('.');

/** The reverse zone of a /24 pool (`192.0.2.0/24`: `2.0.192.in-addr.arpa.`). */
export const zoneOfPool = (cidr: string) => zoneAbove(cidr.replace(/0\/24$/, '1'), 1);

/** An Application API call as the administrator, on a path under `/api/application/cloudsvc`. */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** A provider to create (`POST /providers`) and the credential it is then given. */
export interface ProviderOrder {
  readonly body: { name: string; kind: 'dns'; endpoint: string; dns_zones: string[]; dns_protocol?: string };
  readonly credential: string;
}

/** PowerDNS's HTTP API, with its API key, as the provider of `zones`. */
export const powerDnsApi = (pdns: PowerDns, zones: string[]): ProviderOrder => ({
  body: { name: `pdns-${randomUUID().slice(0, 8)}`, kind: 'dns', endpoint: pdns.endpoint, dns_zones: zones },
  credential: pdns.apiKey,
});

/** An RFC 2136 server at `endpoint` (`dns://host:port`), updated with the TSIG key `panel-key`. */
export const rfc2136Server = (endpoint: string, zones: string[], secret: string): ProviderOrder => ({
  body: {
    name: `rfc2136-${randomUUID().slice(0, 8)}`,
    kind: 'dns',
    dns_protocol: 'rfc2136',
    endpoint,
    dns_zones: zones,
  },
  credential: `hmac-sha256:panel-key:${secret}`,
});

/**
 * The location served by a new DNS provider, through the Application API: created, given its
 * credential, named the location's. Each answer, for a test that checks more of them.
 */
export async function serveLocation(admin: AdminCall, locationId: string, order: ProviderOrder) {
  const made = await admin('POST', '/providers', order.body);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const provider: string = made.body.attributes.uuid;
  const keyed = await admin('PUT', `/providers/${provider}/credential`, { credential: order.credential });
  expect(keyed.status, JSON.stringify(keyed.body)).toBe(200);
  const named = await admin('PATCH', `/locations/${locationId}`, { dns_provider: provider });
  expect(named.status, JSON.stringify(named.body)).toBe(200);
  return { provider, made, keyed, named };
}

/** Waits until the server answers the address's PTR query with `names` ([] for none). */
export const ptrAnswers = (pdns: PowerDns, address: string, names: string[], withinMs = 30_000) =>
  eventually(
    async () => JSON.stringify(await pdns.resolvePtr(address)) === JSON.stringify(names),
    withinMs,
    `${address} to answer ${JSON.stringify(names)}`,
  );

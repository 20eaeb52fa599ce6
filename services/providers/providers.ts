import { isUniqueViolation } from '../../db/errors.js';
import {
  deleteProviderUnlessRunning,
  findProvider,
  insertProvider,
  type ProviderFields,
  type ProviderRow,
  setProviderCredential,
  updateProvider,
} from '../../db/repositories/network/providers.js';
import { canonicalReverseZone, DNS_ZONES_MAX } from '../../domain/dns/reverse-zones.js';
import { parseTsigKey } from '../../domain/dns/tsig-keys.js';
import { ApiError, notFound } from '../../domain/errors.js';
import {
  type DnsProtocol,
  dnsEndpointProblem,
  endpointProblem,
  type ProviderKind,
} from '../../domain/providers.js';
import { secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';

// An administrator's providers: the external backends the plane talks to. The record is plain;
// the credential goes in on its own endpoint, sealed, and never comes back out.

type Deps = Pick<ServiceDeps, 'db' | 'config'>;

/**
 * The endpoint as stored, or a 400 naming `endpoint` (the rules are domain/providers.ts): a URL of
 * an HTTP API, or an RFC 2136 server's `dns://host:port`.
 */
function checkedEndpoint(deps: Deps, endpoint: string, protocol: DnsProtocol | null): string {
  const problem =
    protocol === 'rfc2136'
      ? dnsEndpointProblem(endpoint)
      : endpointProblem(endpoint, deps.config.PROVIDER_ALLOW_HTTP);
  if (problem) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'endpoint', detail: problem }] });
  return endpoint;
}

/**
 * A DNS provider's reverse zones as stored (lower case, absolute, each once), or a 400 naming
 * `dns_zones`; other kinds serve no zones.
 */
function checkedZones(kind: ProviderKind, zones: readonly string[]): string[] {
  const refuse = (detail: string) =>
    new ApiError('SVC-REQ-400', { fields: [{ field: 'dns_zones', detail }] });
  if (kind !== 'dns' && zones.length > 0) throw refuse('Only a provider of kind dns serves zones.');
  if (zones.length > DNS_ZONES_MAX) throw refuse(`At most ${DNS_ZONES_MAX} zones.`);
  const canonical = zones.map((zone) => {
    const name = canonicalReverseZone(zone);
    if (!name) throw refuse(`${JSON.stringify(zone)} is not a reverse zone under in-addr.arpa. or ip6.arpa.`);
    return name;
  });
  return [...new Set(canonical)];
}

const nameTaken = (cause: unknown) =>
  new ApiError('SVC-CONFLICT-409', { detail: 'A provider with this name exists.', cause });

/** A DNS provider's protocol (PowerDNS unless named), or a 400 naming `dns_protocol` for other kinds. */
function checkedProtocol(kind: ProviderKind, protocol: DnsProtocol | null | undefined): DnsProtocol | null {
  if (kind === 'dns') return protocol ?? 'powerdns';
  if (protocol == null) return null;
  throw new ApiError('SVC-REQ-400', {
    fields: [{ field: 'dns_protocol', detail: 'Only a provider of kind dns has a protocol.' }],
  });
}

export async function createProvider(deps: Deps, fields: ProviderFields): Promise<ProviderRow> {
  const protocol = checkedProtocol(fields.kind, fields.dns_protocol);
  try {
    return await insertProvider(deps.db, {
      ...fields,
      dns_protocol: protocol,
      endpoint: checkedEndpoint(deps, fields.endpoint, protocol),
      dns_zones: checkedZones(fields.kind, fields.dns_zones ?? []),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(error);
    throw error;
  }
}

/**
 * The name, the endpoint and a DNS provider's zones may change; the kind is what the provider is,
 * and stays. Records already published in a zone dropped stay on the server until removed there.
 */
export async function editProvider(
  deps: Deps,
  providerId: string,
  fields: Partial<Omit<ProviderFields, 'kind' | 'dns_protocol'>>,
): Promise<ProviderRow> {
  let checked = fields;
  if (fields.endpoint !== undefined || fields.dns_zones !== undefined) {
    const current = await findProvider(deps.db, providerId);
    if (!current) throw notFound();
    if (fields.endpoint !== undefined)
      checked = { ...checked, endpoint: checkedEndpoint(deps, fields.endpoint, current.dns_protocol) };
    if (fields.dns_zones !== undefined)
      checked = { ...checked, dns_zones: checkedZones(current.kind, fields.dns_zones) };
  }
  try {
    const row = await updateProvider(deps.db, providerId, checked);
    if (!row) throw notFound();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(error);
    throw error;
  }
}

/** Seals a credential, or 503 when the service has no key to seal it with. */
export function sealedCredential(deps: Pick<ServiceDeps, 'config'>, credential: string): string {
  if (!deps.config.SECRETS_KEY)
    throw new ApiError('SVC-CONFIG-503', {
      detail: 'Credentials cannot be stored: the service has no secrets key.',
    });
  return secretBox(deps.config.SECRETS_KEY).seal(credential);
}

/**
 * A credential the provider's protocol can use, or a 400 naming `credential`: an RFC 2136 provider's
 * is a TSIG key (domain/dns/tsig-keys.ts); the others are opaque. The detail never quotes it.
 */
export async function checkedCredential(deps: Deps, providerId: string, credential: string): Promise<string> {
  const provider = await findProvider(deps.db, providerId);
  if (!provider) throw notFound();
  if (provider.dns_protocol !== 'rfc2136') return credential;
  const key = parseTsigKey(credential);
  if (!key.ok) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'credential', detail: key.detail }] });
  return credential.trim();
}

/** Replaces the credential at once, untested; `POST …/credential/rotate` tests a new one first. */
export async function setCredential(
  deps: Deps,
  providerId: string,
  credential: string,
): Promise<ProviderRow> {
  const checked = await checkedCredential(deps, providerId, credential);
  const row = await setProviderCredential(deps.db, providerId, sealedCredential(deps, checked));
  if (!row) throw notFound();
  return row;
}

/**
 * Refused while a test, sync or rotation runs, or while a location names it as its DNS; the
 * finished runs go with the provider.
 */
export async function deleteProvider(deps: Deps, providerId: string): Promise<void> {
  const outcome = await deleteProviderUnlessRunning(deps.db, providerId);
  if (outcome === 'missing') throw notFound();
  if (outcome !== 'deleted')
    throw inUse(
      'provider',
      [
        [outcome.runs, 'running check'],
        [outcome.locations, 'dependent location'],
      ],
      'has',
    );
}

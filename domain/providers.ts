// External providers (a storage, IPAM or DNS backend the plane talks to) and the runs that check
// them. Shared by the API's validation, the services and the activity that calls the provider.

export const PROVIDER_KINDS = ['storage', 'ipam', 'dns'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/**
 * How a DNS provider is spoken to: PowerDNS's HTTP API, or RFC 2136 dynamic updates signed with a
 * TSIG key (docs/dns.md "Drivers").
 */
export const DNS_PROTOCOLS = ['powerdns', 'rfc2136'] as const;
export type DnsProtocol = (typeof DNS_PROTOCOLS)[number];

/** The DNS port an RFC 2136 endpoint names when it names none. */
export const DNS_PORT = 53;

export const PROVIDER_RUN_KINDS = ['test', 'sync', 'rotate'] as const;
export type ProviderRunKind = (typeof PROVIDER_RUN_KINDS)[number];

export const PROVIDER_RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type ProviderRunStatus = (typeof PROVIDER_RUN_STATUSES)[number];

/**
 * How a call to the provider ended. Only these words, an HTTP status and times are recorded: never
 * the provider's own body, which may echo what it was sent.
 */
export const PROVIDER_RESULTS = [
  'ok',
  /** 401 or 403: the provider refused the credential. */
  'unauthorized',
  /** No answer: refused connection, DNS failure, TLS failure or the time limit. */
  'unreachable',
  /** Another status, a redirect, or a body that is not what the call expects. */
  'failed',
  /** There is no credential to call with. */
  'no_credential',
] as const;
export type ProviderResult = (typeof PROVIDER_RESULTS)[number];

export interface ProviderOutcome {
  readonly result: ProviderResult;
  readonly http_status: number | null;
  readonly latency_ms: number | null;
  /** Sync only: how many items the provider's inventory holds. */
  readonly items: number | null;
}

export const PROVIDER_NAME_MAX = 100;
export const PROVIDER_ENDPOINT_MAX = 2048;
/** A credential is opaque to us: any printable text up to this length. */
export const PROVIDER_CREDENTIAL_MAX = 4096;
/** How long one call to a provider may take, connection included. */
export const PROVIDER_CALL_TIMEOUT_MS = 10_000;
/** The inventory a sync reads is bounded: a larger body is a failed sync, not a full heap. */
export const PROVIDER_INVENTORY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Why an endpoint is refused, or null. HTTPS only unless plain HTTP is allowed by configuration
 * (a provider on a private network without TLS); never a user name, password, query or fragment in
 * the URL, where a secret would be stored and shown in the clear.
 */
export function endpointProblem(value: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Must be an absolute URL.';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    return allowHttp ? 'Must be an https:// or http:// URL.' : 'Must be an https:// URL.';
  if (url.username || url.password)
    return 'Must not carry a user name or password: set the credential on its own endpoint.';
  if (url.search || url.hash || value.includes('?') || value.includes('#'))
    return 'Must not carry a query or fragment.';
  return null;
}

/**
 * Why an RFC 2136 provider's endpoint is refused, or null: `dns://host[:port]` (an address, `[v6]`,
 * or a host name), nothing else. There is no credential in it: the TSIG key is the credential.
 */
export function dnsEndpointProblem(value: string): string | null {
  const server = dnsServerOf(value);
  return server === null ? 'Must be dns://host or dns://host:port (RFC 2136 dynamic updates).' : null;
}

/** The host and port of a `dns://` endpoint, or null when it is not one. */
export function dnsServerOf(value: string): { host: string; port: number } | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'dns:' || !url.hostname || url.username || url.password) return null;
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash || value.includes('?'))
    return null;
  const port = url.port === '' ? DNS_PORT : Number(url.port);
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

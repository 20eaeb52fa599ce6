import {
  type DnsProtocol,
  PROVIDER_CALL_TIMEOUT_MS,
  PROVIDER_INVENTORY_MAX_BYTES,
  type ProviderKind,
  type ProviderOutcome,
  type ProviderRunKind,
} from '../domain/providers.js';
import { checkRfc2136 } from './dns/rfc2136/check.js';

/**
 * Where a check calls and how it presents the credential. A storage or IPAM provider: a bearer token,
 * `GET {endpoint}` for a test or a rotation's trial, `GET {endpoint}/inventory` for a sync. A DNS
 * provider is a PowerDNS server: its API key as `X-API-Key`, `GET …/servers/localhost` for a test
 * or a trial, and its zones (`GET …/servers/localhost/zones`, a JSON array) as a sync's inventory.
 */
function checkRequest(
  endpoint: string,
  credential: string,
  kind: ProviderRunKind,
  providerKind: ProviderKind,
): { url: string; headers: Record<string, string> } {
  const base = endpoint.replace(/\/+$/, '');
  if (providerKind === 'dns')
    return {
      url: `${base}/api/v1/servers/localhost${kind === 'sync' ? '/zones' : ''}`,
      headers: { 'X-API-Key': credential, Accept: 'application/json' },
    };
  return {
    url: kind === 'sync' ? `${base}/inventory` : endpoint,
    headers: { Authorization: `Bearer ${credential}`, Accept: 'application/json' },
  };
}

/**
 * One call to a provider with its credential (checkRequest says where and how); a sync's inventory
 * is a JSON array, or an object whose `data` is one. Every way it can end becomes an outcome, never
 * an error: an error's message would carry what the provider said into the workflow's history, and
 * a provider may echo what it was sent.
 * Redirects are not followed, so the credential goes nowhere but the endpoint.
 */
export async function callProvider(
  endpoint: string,
  credential: string,
  kind: ProviderRunKind,
  providerKind: ProviderKind,
  dns: { protocol: DnsProtocol | null; zones: readonly string[] } = { protocol: null, zones: [] },
): Promise<ProviderOutcome> {
  // An RFC 2136 server speaks DNS, not HTTP: its check is a signed query (rfc2136/check.ts).
  if (dns.protocol === 'rfc2136') return checkRfc2136(endpoint, credential, kind, dns.zones);
  const { url, headers } = checkRequest(endpoint, credential, kind, providerKind);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: Response;
  try {
    response = await fetch(url, {
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(PROVIDER_CALL_TIMEOUT_MS),
    });
  } catch {
    return { result: 'unreachable', http_status: null, latency_ms: elapsed(), items: null };
  }
  const status = response.status;
  const answered = (result: ProviderOutcome['result'], items: number | null = null): ProviderOutcome => ({
    result,
    http_status: status,
    latency_ms: elapsed(),
    items,
  });
  if (status === 401 || status === 403) return settle(response, answered('unauthorized'));
  if (status < 200 || status > 299) return settle(response, answered('failed'));
  if (kind !== 'sync') return settle(response, answered('ok'));
  const items = await inventorySize(response);
  return items === null ? answered('failed') : answered('ok', items);
}

/** Drops an unread body so the connection is released. */
async function settle(response: Response, outcome: ProviderOutcome): Promise<ProviderOutcome> {
  await response.body?.cancel().catch(() => undefined);
  return outcome;
}

/** How many items the inventory lists, or null when the body is too large or not an inventory. */
async function inventorySize(response: Response): Promise<number | null> {
  const body = await boundedJson(response);
  const list = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  return Array.isArray(list) ? list.length : null;
}

/**
 * A provider's answer as JSON, or null when it is larger than PROVIDER_INVENTORY_MAX_BYTES (read no
 * further) or not JSON: what a provider's inventory and a DNS server's zone are read with.
 */
export async function boundedJson(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > PROVIDER_INVENTORY_MAX_BYTES) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

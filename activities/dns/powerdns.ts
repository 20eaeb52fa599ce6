import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/providers.js';
import { boundedJson } from '../provider-call.js';
import type { DnsAnswer, DnsDriver, PtrChange, PtrContents } from './driver.js';

/**
 * A PowerDNS authoritative server's HTTP API, as a DNS provider: PTR rrsets changed in one zone by
 * one `PATCH` (PowerDNS applies a PATCH whole or not at all), and a zone's PTR rrsets read back.
 * The credential goes as `X-API-Key`, only to the endpoint (redirects are not followed).
 */
export interface PowerDnsServer {
  /** The API's base, e.g. `https://ns1.example.net:8081`. */
  readonly endpoint: string;
  readonly apiKey: string;
}

export function powerDnsDriver(server: PowerDnsServer): DnsDriver {
  return {
    changePtrRecords: (zone, changes, ttl) => patchPtrRecords(server, zone, changes, ttl),
    // One GET reads the whole zone: cheaper than a query per name, and the same answer.
    servedPtrRecords: (zone) => readPtrRecords(server, zone),
    listPtrRecords: (zone) => readPtrRecords(server, zone),
  };
}

const zoneUrl = (server: PowerDnsServer, zone: string) =>
  `${server.endpoint.replace(/\/+$/, '')}/api/v1/servers/localhost/zones/${encodeURIComponent(zone)}`;

async function call(
  server: PowerDnsServer,
  zone: string,
  init: { method: 'GET' | 'PATCH'; body?: unknown },
): Promise<DnsAnswer<{ response: Response }>> {
  let response: Response;
  try {
    response = await fetch(zoneUrl(server, zone), {
      method: init.method,
      headers: {
        'X-API-Key': server.apiKey,
        Accept: 'application/json',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(PROVIDER_CALL_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, failure: 'unreachable', httpStatus: null };
  }
  const status = response.status;
  if (status >= 200 && status <= 299) return { ok: true, response };
  await response.body?.cancel().catch(() => undefined);
  return {
    ok: false,
    failure: status === 401 || status === 403 ? 'unauthorized' : 'rejected',
    httpStatus: status,
  };
}

async function patchPtrRecords(
  server: PowerDnsServer,
  zone: string,
  changes: readonly PtrChange[],
  ttl: number,
): Promise<DnsAnswer<object>> {
  const rrsets = changes.map((change) =>
    change.content === null
      ? { name: change.name, type: 'PTR', changetype: 'DELETE' }
      : {
          name: change.name,
          type: 'PTR',
          ttl,
          changetype: 'REPLACE',
          records: [{ content: change.content, disabled: false }],
        },
  );
  const answer = await call(server, zone, { method: 'PATCH', body: { rrsets } });
  if (!answer.ok) return answer;
  await answer.response.body?.cancel().catch(() => undefined);
  return { ok: true };
}

/** The zone's PTR rrsets as the server serves them: owner name → the contents of its enabled records. */
async function readPtrRecords(
  server: PowerDnsServer,
  zone: string,
): Promise<DnsAnswer<{ ptrs: PtrContents }>> {
  const answer = await call(server, zone, { method: 'GET' });
  if (!answer.ok) return answer;
  const status = answer.response.status;
  const body = await boundedJson(answer.response);
  const rrsets = (body as { rrsets?: unknown } | null)?.rrsets;
  if (!Array.isArray(rrsets)) return { ok: false, failure: 'bad_answer', httpStatus: status };
  const ptrs: PtrContents = new Map();
  for (const rrset of rrsets as unknown[]) {
    const { name, type, records } = (rrset ?? {}) as { name?: unknown; type?: unknown; records?: unknown };
    if (typeof name !== 'string' || typeof type !== 'string' || !Array.isArray(records))
      return { ok: false, failure: 'bad_answer', httpStatus: status };
    if (type !== 'PTR') continue;
    const contents = (records as { content?: unknown; disabled?: unknown }[])
      .filter((r) => r?.disabled !== true && typeof r?.content === 'string')
      .map((r) => (r.content as string).toLowerCase());
    ptrs.set(name.toLowerCase(), contents);
  }
  return { ok: true, ptrs };
}

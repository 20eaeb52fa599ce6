import {
  PROVIDER_CALL_TIMEOUT_MS,
  PROVIDER_INVENTORY_MAX_BYTES,
  type ProviderOutcome,
  type ProviderRunKind,
} from '../domain/providers.js';

/**
 * One call to a provider, with its credential as a bearer token: `GET {endpoint}` for a test or a
 * rotation's trial, `GET {endpoint}/inventory` for a sync (a JSON array, or an object whose `data`
 * is one). Every way it can end becomes an outcome, never an error: an error's message would carry
 * what the provider said into the workflow's history, and a provider may echo what it was sent.
 * Redirects are not followed, so the credential goes nowhere but the endpoint.
 */
export async function callProvider(
  endpoint: string,
  credential: string,
  kind: ProviderRunKind,
): Promise<ProviderOutcome> {
  const url = kind === 'sync' ? `${endpoint.replace(/\/+$/, '')}/inventory` : endpoint;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${credential}`, Accept: 'application/json' },
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
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const list = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
    return Array.isArray(list) ? list.length : null;
  } catch {
    return null;
  }
}

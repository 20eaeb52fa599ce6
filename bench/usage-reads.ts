/**
 * A customer's month of usage records read by an administrator through the compiled API's
 * `GET /usage?user=…&from=…&to=…`: every JSON page in turn (100 records a page), and the whole
 * range as CSV, each timed from the first request to the last byte taken.
 */
import { addHours } from '../domain/usage/hours.js';
import { MONTH } from './usage-history.js';

export const TARGET_MS = 2000;

export interface MonthRead {
  readonly wallMs: number;
  readonly records: number;
  readonly bytes: number;
  readonly requests: number;
}

function monthUrl(apiUrl: string, userId: string, extra: string) {
  const to = addHours(MONTH.from, MONTH.hours).toISOString();
  return (
    `${apiUrl}/api/application/cloudsvc/usage?user=${userId}&from=${MONTH.from.toISOString()}` +
    `&to=${to}&${extra}`
  );
}

async function get(url: string, key: string) {
  const reply = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  const body = await reply.text();
  if (reply.status !== 200) throw new Error(`GET ${url}: answered ${reply.status}: ${body.slice(0, 300)}`);
  return body;
}

/** Every page of the customer's month as JSON, one after another. */
export async function readMonthJson(apiUrl: string, key: string, userId: string): Promise<MonthRead> {
  const started = performance.now();
  let records = 0;
  let bytes = 0;
  let requests = 0;
  for (let page = 1; ; page++) {
    const body = await get(monthUrl(apiUrl, userId, `page=${page}&per_page=100`), key);
    requests++;
    bytes += Buffer.byteLength(body);
    const parsed = JSON.parse(body) as { data: unknown[]; meta: { pagination: { total_pages: number } } };
    records += parsed.data.length;
    if (page >= parsed.meta.pagination.total_pages) break;
  }
  return { wallMs: performance.now() - started, records, bytes, requests };
}

/** The customer's month as one CSV export. */
export async function readMonthCsv(apiUrl: string, key: string, userId: string): Promise<MonthRead> {
  const started = performance.now();
  const body = await get(monthUrl(apiUrl, userId, 'format=csv'), key);
  const lines = body.split('\n').filter((l) => l.length > 0).length;
  return {
    wallMs: performance.now() - started,
    records: lines - 1,
    bytes: Buffer.byteLength(body),
    requests: 1,
  };
}

import fc from 'fast-check';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { tableDigest } from '../support/database.js';
import type { Body } from '../support/http.js';
import type { Stack } from '../support/stack.js';
import { MARKER_DATE, MARKER_UUID, MASS_ASSIGNMENT } from './hostile-values.js';
import { clip, describeRequest, type FuzzRequest } from './requests.js';

/**
 * Sends one route's generated requests through the app, one at a time, and holds every answer to
 * what issue 7 asks: below 500; a refusal in the error envelope; nothing internal in any body; a
 * refused request changes nothing in the database; a request that must be refused is.
 *
 * The database is compared request by request: its digest after each request is the one the next
 * is compared with. That is the plain form of "unchanged by every refused request", and it lets a
 * valid request (which may change the database) sit between hostile ones.
 */

/**
 * A refused enrollment counts against its address by design (docs/api.md, Agent API: failed attempts
 * are rate-limited), and so does any request over a rate limit: the limiter's table is the one
 * place a refusal is meant to leave a trace.
 */
const COUNTS_REFUSALS = new Set(['rate_limits']);

/** A request slower than this means the route waits on something the fuzz does not run. */
const SLOW_MS = 10_000;

export interface RouteStats {
  readonly route: string;
  requests: number;
  accepted: number;
  refused: number;
  failed: number;
  readonly statuses: Map<number, number>;
}

export const newStats = (route: string): RouteStats => ({
  route,
  requests: 0,
  accepted: 0,
  refused: 0,
  failed: 0,
  statuses: new Map(),
});

async function digestOf(db: Database): Promise<Record<string, string>> {
  const digest = await tableDigest(db);
  for (const table of COUNTS_REFUSALS) delete digest[table];
  return digest;
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (table) => before[table] !== after[table],
  );

/** Tables with a row holding a mass-assignment marker. */
async function tablesHoldingMarkers(db: Database): Promise<string[]> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const holding: string[] = [];
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(name)} as t
      where t::text like ${`%${MARKER_UUID}%`} or t::text like ${`%${MARKER_DATE}%`}`.execute(db);
    if (rows[0]!.n > 0) holding.push(name);
  }
  return holding;
}

/** What no answer may show (DESIGN.md "Errors"): stack traces, SQL, host paths, error names. */
const LEAKS_ANYWHERE: [string, RegExp][] = [
  // A frame names where it is (`(file:line:col)`, `<anonymous>`, `native`): prose such as "at once (" is not one.
  [
    'a stack frame',
    /\bat (?:async )?[\w$.<>[\]]+ \((?:[^)\s]*:\d+:\d+|<anonymous>|native)\)|\n\s+at [^\n]+:\d+:\d+|\bat (?:file|node):[^\s)]+:\d+/,
  ],
  ['an error name', /\b[A-Z]\w*Error\b:|\bError: /],
  [
    'a host path',
    // A host path begins one: `/storage/root/resize`, a route's own path, is none.
    /file:\/\/|node:internal|node_modules|(?<![\w}])\/(?:home|root|usr|var|tmp|work|opt|srv)\/\w|[A-Za-z]:\\\w|\.(?:ts|js|mjs|cjs):\d+/,
  ],
];
/** What no refusal may show: SQL, database errors, the names of the parts behind the API. */
const LEAKS_IN_ERRORS: [string, RegExp][] = [
  ['SQL', /\b(?:select\b[\s\S]{1,200}\bfrom|insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i],
  [
    'a database error',
    /violates|constraint|relation "|column "|syntax error|duplicate key|SQLSTATE|invalid input syntax|out of range for type|invalid byte sequence|unsupported Unicode escape/i,
  ],
  ['an internal name', /\b(?:postgres(?:ql)?|pg|kysely|temporal|grpc|zod|hono|undefined is|cannot read)\b/i],
];

function leaksIn(text: string, request: FuzzRequest, isError: boolean): string[] {
  const sent = `${safeDecode(request.url)}\n${request.body ?? ''}`;
  const found: string[] = [];
  for (const [what, pattern] of isError ? [...LEAKS_ANYWHERE, ...LEAKS_IN_ERRORS] : LEAKS_ANYWHERE) {
    const match = text.match(pattern);
    // The caller's own text, echoed back, is not a leak.
    if (match && !sent.includes(match[0])) found.push(`${what} (${JSON.stringify(match[0])})`);
  }
  return found;
}

function safeDecode(url: string): string {
  try {
    return `${url}\n${decodeURIComponent(url)}`;
  } catch {
    return url;
  }
}

/** The error envelope (docs/api.md "Conventions"), with the answer's own status in every entry. */
function envelopeProblems(status: number, contentType: string | null, text: string): string[] {
  if (!contentType?.startsWith('application/json'))
    return [`a ${status} sent as ${contentType ?? 'no content type'}`];
  let body: Body;
  try {
    body = JSON.parse(text);
  } catch {
    return [`a ${status} whose body is not JSON`];
  }
  const problems: string[] = [];
  if (!Array.isArray(body?.errors) || body.errors.length === 0) problems.push('no errors array');
  for (const error of Array.isArray(body?.errors) ? body.errors : []) {
    if (typeof error?.code !== 'string' || !/^[A-Z][A-Z0-9_-]+$/.test(error.code))
      problems.push('an error without a code');
    if (error?.status !== status) problems.push(`an error entry with status ${error?.status} in a ${status}`);
    if (typeof error?.detail !== 'string' || error.detail === '') problems.push('an error without a detail');
    if (error?.source !== undefined && typeof error.source?.field !== 'string')
      problems.push('a source without a field');
  }
  if (typeof body?.support_id !== 'string' || body.support_id === '') problems.push('no support_id');
  return problems;
}

export interface FuzzRun {
  readonly t: Stack;
  readonly requests: fc.Arbitrary<FuzzRequest>;
  readonly numRuns: number;
  readonly seed: number;
  /** fast-check's path of one failure, to replay it alone. */
  readonly path?: string | undefined;
  readonly stats: RouteStats;
}

export async function fuzzRoute({ t, requests, numRuns, seed, path, stats }: FuzzRun): Promise<void> {
  let digest = await digestOf(t.db);
  const property = fc.asyncProperty(requests, async (request) => {
    const started = performance.now();
    const res = await t.app.request(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    const text = await res.text();
    const elapsed = performance.now() - started;
    const { status } = res;

    stats.requests++;
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
    if (status >= 500) stats.failed++;
    else if (status >= 400) stats.refused++;
    else stats.accepted++;

    const problems: string[] = [];
    if (status >= 500) problems.push(`answered ${status}`);
    if (status >= 400) problems.push(...envelopeProblems(status, res.headers.get('content-type'), text));
    problems.push(...leaksIn(text, request, status >= 400).map((leak) => `the answer shows ${leak}`));
    if (request.mustRefuse && status < 400)
      problems.push(`accepted with ${status} although ${request.mustRefuse}`);
    if (elapsed > SLOW_MS) {
      problems.push(
        `took ${Math.round(elapsed)} ms: if the route waits for an agent, declare it in WAITS_FOR_AN_AGENT`,
      );
    }

    const after = await digestOf(t.db);
    if (status >= 400) {
      const changed = changedTables(digest, after);
      if (changed.length > 0) problems.push(`refused with ${status}, yet changed ${changed.join(', ')}`);
    }
    digest = after;

    if (status < 300 && request.massAssigned.length > 0) {
      const holding = await tablesHoldingMarkers(t.db);
      if (holding.length > 0) {
        problems.push(`took mass-assigned ${request.massAssigned.join(', ')} into ${holding.join(', ')}`);
      }
      if (text.includes(MARKER_UUID) || text.includes(MARKER_DATE))
        problems.push('echoed a mass-assigned value');
      // No request turns anything to this status at once; an answer showing it took the field.
      const injected = JSON.stringify(MASS_ASSIGNMENT.status);
      if (request.massAssigned.includes('status') && text.includes(`"status":${injected}`)) {
        problems.push(`took the mass-assigned status ${injected}`);
      }
    }

    if (problems.length > 0) {
      throw new Error(
        `${problems.join('; ')}\n  answer: ${status} ${clip(text, 600)}\n  request: ${describeRequest(request)}`,
      );
    }
  });
  await fc.assert(property, { numRuns, seed, ...(path === undefined ? {} : { path }) });
}

/** One row per route: requests, 2xx/4xx/5xx, and the statuses seen. */
export function statsTable(rows: readonly RouteStats[]): string {
  const total = rows.reduce(
    (sum, r) => ({
      requests: sum.requests + r.requests,
      accepted: sum.accepted + r.accepted,
      refused: sum.refused + r.refused,
      failed: sum.failed + r.failed,
    }),
    { requests: 0, accepted: 0, refused: 0, failed: 0 },
  );
  const width = Math.max(5, ...rows.map((r) => r.route.length));
  const line = (
    route: string,
    requests: unknown,
    accepted: unknown,
    refused: unknown,
    failed: unknown,
    statuses: string,
  ) =>
    `${route.padEnd(width)}  ${String(requests).padStart(8)}  ${String(accepted).padStart(6)}  ${String(refused).padStart(6)}  ${String(failed).padStart(6)}  ${statuses}`;
  return [
    line('route', 'requests', '2xx', '4xx', '5xx', 'statuses'),
    ...rows.map((r) =>
      line(
        r.route,
        r.requests,
        r.accepted,
        r.refused,
        r.failed,
        [...r.statuses.keys()].sort((a, b) => a - b).join(' '),
      ),
    ),
    line('total', total.requests, total.accepted, total.refused, total.failed, ''),
  ].join('\n');
}

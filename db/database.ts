import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

// timestamptz → Date is pg's default; bigint (int8) stays a string so no precision is lost.

export type Database = Kysely<DB>;

export interface DatabaseOptions {
  readonly url: string;
  readonly poolSize: number;
  /**
   * Named prepared statements let PostgreSQL plan each query shape once per connection (about
   * 1.6x the throughput of a re-planned primary-key read). Off for embedded PGlite, whose socket
   * funnels every connection into one session, where statement names would collide.
   */
  readonly namedStatements: boolean;
  readonly applicationName?: string;
}

export interface DatabaseHandle {
  readonly db: Database;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export function statementName(sqlText: string): string {
  return `k_${createHash('sha1').update(sqlText).digest('base64url')}`;
}

/** A pool whose clients send each query as a named statement keyed by its SQL text. */
function namedStatementPool(pool: pg.Pool) {
  return {
    async connect() {
      const client = await pool.connect();
      return {
        query: (text: string, values: unknown[]) => client.query({ name: statementName(text), text, values }),
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    application_name: options.applicationName ?? 'cloudsvc',
  });
  // An idle client that loses its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: options.namedStatements ? (namedStatementPool(pool) as never) : pool,
    }),
  });
  return { db, pool, close: () => db.destroy() };
}

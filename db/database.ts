import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

// timestamptz → Date is pg's default; bigint (int8) stays a string so no precision is lost.

export type Database = Kysely<DB>;

export interface DatabaseOptions {
  readonly url: string;
  readonly poolSize: number;
  /**
   * Named prepared statements let PostgreSQL plan each query shape once per connection (about
   * 1.6x the throughput of a re-planned primary-key read). Off behind a pooler in transaction
   * mode, which hands a connection's statements to server sessions that do not know their names.
   */
  readonly namedStatements: boolean;
  readonly applicationName?: string;
}

export interface DatabaseHandle {
  readonly db: Database;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

const statementNames = new Map<string, string>();

/** A stable name per SQL text; memoised, as hashing on every query showed in profiles. */
function statementName(sqlText: string): string {
  let name = statementNames.get(sqlText);
  if (name === undefined) {
    // Bounded: query shapes are few, but an `in (…)` list makes a new text per length.
    if (statementNames.size >= 5_000) statementNames.clear();
    name = `k_${createHash('sha1').update(sqlText).digest('base64url')}`;
    statementNames.set(sqlText, name);
  }
  return name;
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

/** The pool behind each root handle (not its transactions), for reads that skip Kysely's layers. */
const roots = new WeakMap<Database, { pool: pg.Pool; namedStatements: boolean }>();

/**
 * Runs SQL on the pool behind a root handle; undefined for a transaction, which must use its
 * own connection through Kysely.
 */
export async function queryDirect<Row>(
  db: Database,
  text: string,
  values: unknown[],
): Promise<Row[] | undefined> {
  const root = roots.get(db);
  if (!root) return undefined;
  const config = root.namedStatements ? { name: statementName(text), text, values } : { text, values };
  return (await root.pool.query(config)).rows as Row[];
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
  roots.set(db, { pool, namedStatements: options.namedStatements });
  return { db, pool, close: () => db.destroy() };
}

/** One round trip to the server: whether the database answers at all. */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on the server of `serverUrl`, for a test run or a benchmark, and the way to
 * drop it: empty, or a copy of `template` (see `freezeAsTemplate`). `prefix` must be a plain
 * identifier.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<ScratchDatabase> {
  // Test files in one run create theirs at the same moment, some from the same process.
  const name = `${prefix}_${Date.now()}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await onServer(
    serverUrl,
    `create database ${name}${options.template ? ` template ${options.template}` : ''}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * Makes a prepared scratch database the template that `createScratchDatabase(…, { template })`
 * copies. PostgreSQL refuses to copy a database anyone is connected to, so every pool on it must
 * be closed first, and from here on it takes no connections at all.
 */
export async function freezeAsTemplate(
  serverUrl: string,
  database: ScratchDatabase,
): Promise<ScratchDatabase> {
  await onServer(serverUrl, `alter database ${database.name} with is_template true allow_connections false`);
  return {
    ...database,
    async drop() {
      // A template cannot be dropped as such.
      await onServer(serverUrl, `alter database ${database.name} with is_template false`);
      await database.drop();
    },
  };
}

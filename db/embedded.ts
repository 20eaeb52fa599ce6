import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Serves a PGlite database kept in `dataDir` on a loopback port, so the api, worker and CLI
 * reach it with the same `pg` driver as a real server. Used when DATABASE_URL is not set.
 */
export async function startEmbeddedDatabase(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port, maxConnections: 64 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await pglite.close();
    },
  };
}

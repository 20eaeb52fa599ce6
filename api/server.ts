import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createDatabase } from '../db/database.js';
import { TaskFeed } from '../db/task-channel.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { connectTemporal } from '../platform/temporal.js';
import { buildApp } from './app.js';
import type { AppDeps } from './context.js';
import { CredentialCache } from './credential-cache.js';

export interface ApiServer {
  readonly url: string;
  readonly deps: AppDeps;
  close(): Promise<void>;
}

/** Everything the API process holds, built from configuration. */
export async function createAppDeps(
  config: Config,
  logger: Logger,
): Promise<AppDeps & { close(): Promise<void> }> {
  const database = createDatabase({
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    namedStatements: config.DATABASE_NAMED_STATEMENTS,
    applicationName: 'cloudsvc-api',
  });
  const temporal = await connectTemporal(config);
  const taskFeed = new TaskFeed(config.DATABASE_URL, logger);
  await taskFeed.start();
  return {
    config,
    logger,
    db: database.db,
    temporal: temporal.client,
    credentials: new CredentialCache(database.db, config.AUTH_CACHE_TTL_MS),
    taskFeed,
    async close() {
      await taskFeed.close();
      await temporal.close();
      await database.close();
    },
  };
}

export async function startApiServer(config: Config, logger: Logger): Promise<ApiServer> {
  const deps = await createAppDeps(config, logger);
  const app = buildApp(deps);
  const server = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST}:${port}`;
  return {
    url,
    deps,
    async close() {
      // Long-polling agents are released first so the server can drain.
      await deps.taskFeed.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await deps.close();
    },
  };
}

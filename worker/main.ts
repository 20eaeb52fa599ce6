import { Runtime } from '@temporalio/worker';
import { createDatabase } from '../db/database.js';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { onShutdown } from '../platform/shutdown.js';
import { startSweepers } from './sweepers.js';
import { createWorker } from './worker.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { service: 'worker' });
Runtime.install({
  logger: {
    log: (level, message, meta) =>
      logger[level === 'ERROR' ? 'error' : level === 'WARN' ? 'warn' : 'debug'](message, meta),
    trace: () => {},
    debug: (message, meta) => logger.debug(message, meta),
    info: (message, meta) => logger.info(message, meta),
    warn: (message, meta) => logger.warn(message, meta),
    error: (message, meta) => logger.error(message, meta),
  },
});

const database = createDatabase({
  url: config.DATABASE_URL,
  poolSize: config.DATABASE_POOL_SIZE,
  namedStatements: config.DATABASE_NAMED_STATEMENTS,
  applicationName: 'cloudsvc-worker',
});
const { worker, connection } = await createWorker({ config, db: database.db });
const stopSweepers = startSweepers(database.db, config, logger);
logger.info('worker running', {
  task_queue: config.TEMPORAL_TASK_QUEUE,
  namespace: config.TEMPORAL_NAMESPACE,
});

onShutdown(logger, async () => {
  stopSweepers();
  worker.shutdown();
});
await worker.run();
await connection.close();
await database.close();
process.exit(0);

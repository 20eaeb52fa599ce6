import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { onShutdown } from '../platform/shutdown.js';
import { startApiServer } from './start.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { service: 'api' });
const server = await startApiServer(config, logger);
logger.info('api listening', { url: server.url });
onShutdown(logger, () => server.close());

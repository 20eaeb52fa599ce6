import { createLogger } from '../platform/logger.js';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './server.js';

// `npm run console-gateway`: the reference console gateway (docs/console.md).
const config = loadGatewayConfig();
const logger = createLogger(config.LOG_LEVEL, { service: 'console-gateway' });
const gateway = await startGateway(config, logger);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info('console gateway shutting down', { signal });
    void gateway.close().then(() => process.exit(0));
  });
}

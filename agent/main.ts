import { createLogger } from '../platform/logger.js';
import { Agent } from './agent.js';
import { loadAgentConfig } from './config.js';
import { SimulatedDriver } from './drivers/simulated.js';

// `npm run agent`: the reference agent with the simulated driver (the only driver so far).
const config = loadAgentConfig();
const logger = createLogger(config.LOG_LEVEL, { service: 'agent' });
const agent = new Agent(config, new SimulatedDriver(config), logger);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info('agent shutting down', { signal });
    agent.stop();
  });
}
try {
  await agent.run();
  process.exit(0);
} catch (error) {
  logger.error('agent stopped', { error: (error as Error).message });
  // EX_NOPERM: the credential was refused; a supervisor should not restart it blindly.
  process.exit(77);
}

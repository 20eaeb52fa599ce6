import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { type Config, configWith } from '../../platform/config.js';
import { createLogger } from '../../platform/logger.js';

/** Settings over the test defaults, by variable name, as the environment would give them. */
export type ConfigOverrides = Partial<Record<keyof Config, string>>;

/** One key per test process: whatever seals a password and whatever opens it agree. */
const TEST_SECRETS_KEY = randomBytes(32).toString('base64');

/**
 * The configuration of a test's processes on the run's PostgreSQL database and Temporal dev server
 * (see global-setup.ts). Each gets a task queue of its own, so its workflows run on its own worker.
 */
export function testConfig(overrides: ConfigOverrides = {}): Config {
  return configWith({
    SECRETS_KEY: TEST_SECRETS_KEY,
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_POOL_SIZE: '4',
    AUTH_CACHE_TTL_MS: '0',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    ...overrides,
  });
}

export const testLogger = (config: Config) => createLogger(config.LOG_LEVEL, { service: 'test' });

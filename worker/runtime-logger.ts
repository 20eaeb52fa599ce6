import { Runtime, type LogLevel as TemporalLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger.js';

/**
 * Sends the Temporal SDK's own log lines through our structured logger. The SDK logs activity
 * info, task token included, on async completion: the token stays out of our logs.
 */
export function installRuntimeLogger(logger: Logger): void {
  const clean = (meta?: Record<string, unknown>) => {
    if (!meta || !('taskToken' in meta)) return meta;
    const { taskToken: _dropped, ...rest } = meta;
    return rest;
  };
  const levels: Record<TemporalLevel, 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'debug',
    DEBUG: 'debug',
    INFO: 'info',
    WARN: 'warn',
    ERROR: 'error',
  };
  Runtime.install({
    logger: {
      log: (level, message, meta) => logger[levels[level]](message, clean(meta)),
      trace: () => {},
      debug: (message, meta) => logger.debug(message, clean(meta)),
      info: (message, meta) => logger.info(message, clean(meta)),
      warn: (message, meta) => logger.warn(message, clean(meta)),
      error: (message, meta) => logger.error(message, clean(meta)),
    },
  });
}

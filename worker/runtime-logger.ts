import { Runtime, type LogLevel as TemporalLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger.js';

/**
 * Sends the Temporal SDK's own log lines, and the workflow and activity loggers, through our
 * structured logger and so through its one redaction list (platform/redaction.ts). The SDK logs
 * activity info, task token included, on async completion: `taskToken` is a secret field there.
 */
export function installRuntimeLogger(logger: Logger): void {
  const levels: Record<TemporalLevel, 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'debug',
    DEBUG: 'debug',
    INFO: 'info',
    WARN: 'warn',
    ERROR: 'error',
  };
  Runtime.install({
    logger: {
      log: (level, message, meta) => logger[levels[level]](message, meta),
      trace: () => {},
      debug: (message, meta) => logger.debug(message, meta),
      info: (message, meta) => logger.info(message, meta),
      warn: (message, meta) => logger.warn(message, meta),
      error: (message, meta) => logger.error(message, meta),
    },
  });
}

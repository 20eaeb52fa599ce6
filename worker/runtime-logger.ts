import { Runtime, type LogLevel as TemporalLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger.js';

/**
 * Sends the Temporal SDK's own log lines, and the workflow and activity loggers, through our
 * structured logger and so through its one redaction list (platform/redaction.ts). The SDK logs
 * activity info, task token included, on async completion: `taskToken` is a secret field there.
 */
export function installRuntimeLogger(
  logger: Logger,
  options: {
    /**
     * Where the SDK's own Prometheus exporter listens (`host:port`, its `/metrics`): task slots,
     * poll and schedule-to-start latencies, workflow and activity outcomes (docs/operations.md
     * "Metrics"). Not set: no exporter (a test process runs several workers' worth).
     */
    readonly sdkMetricsAddress?: string;
  } = {},
): void {
  const levels: Record<TemporalLevel, 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'debug',
    DEBUG: 'debug',
    INFO: 'info',
    WARN: 'warn',
    ERROR: 'error',
  };
  Runtime.install({
    ...(options.sdkMetricsAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: options.sdkMetricsAddress } } } }
      : {}),
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

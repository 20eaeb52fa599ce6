/**
 * Structured logs: one JSON object per line on stdout, with the bindings of its context
 * (request_id, support_id, workflow_id …) so a support id or request id finds every line.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return {
      name: error.name,
      message: error.message,
      stack: error.stack,
      ...(error.cause === undefined ? {} : { cause: describeError(error.cause) }),
    };
  }
  return { value: String(error) };
}

export function createLogger(
  level: LogLevel,
  bindings: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const threshold = RANK[level];
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < threshold) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, msg, ...bindings };
    for (const [key, value] of Object.entries(fields ?? {})) {
      record[key] = value instanceof Error ? describeError(value) : value;
    }
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (more) => createLogger(level, { ...bindings, ...more }, write),
  };
}

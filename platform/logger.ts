/**
 * Structured logs: one JSON object per line on stdout, with the bindings of its context
 * (request_id, support_id, workflow_id …) so a support id or request id finds every line.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

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

type Write = (line: string) => void;

// A class, not closures: every request makes a child, and that must cost one allocation.
export class Logger {
  readonly #threshold: number;

  constructor(
    private readonly level: LogLevel,
    private readonly bindings: Record<string, unknown> = {},
    private readonly write: Write = (line) => process.stdout.write(line),
    private readonly parent?: Logger,
  ) {
    this.#threshold = RANK[level];
  }

  enabled(level: Exclude<LogLevel, 'silent'>): boolean {
    return RANK[level] >= this.#threshold;
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.#emit('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.#emit('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.#emit('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.#emit('error', msg, fields);
  }

  /** Bindings are merged when a line is written, not here: most children never write one. */
  child(bindings: Record<string, unknown>): Logger {
    return new Logger(this.level, bindings, this.write, this);
  }

  #allBindings(): Record<string, unknown> {
    return this.parent ? { ...this.parent.#allBindings(), ...this.bindings } : this.bindings;
  }

  #emit(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < this.#threshold) return;
    const record: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      msg,
      ...this.#allBindings(),
    };
    for (const [key, value] of Object.entries(fields ?? {})) {
      record[key] = value instanceof Error ? describeError(value) : value;
    }
    this.write(`${JSON.stringify(record)}\n`);
  }
}

export function createLogger(level: LogLevel, bindings: Record<string, unknown> = {}, write?: Write): Logger {
  return new Logger(level, bindings, write);
}

import pino, { type Logger as Pino } from 'pino';
import { redactFields, redactText } from './redaction.js';

/**
 * Structured logs: one JSON object per line on stdout, written by pino, with the bindings of its
 * context (request_id, support_id, workflow_id …) so a support id or request id finds every line.
 * Every line passes the one redaction list of platform/redaction.ts: its message, its bindings and
 * its fields, errors and their causes included.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

type Write = (line: string) => void;

function rootPino(level: LogLevel, bindings: Record<string, unknown>, write: Write | undefined): Pino {
  return pino(
    {
      level,
      base: redactFields(bindings),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: redactFields,
      },
      hooks: {
        // The message is text like any field's: a secret pasted into it is caught by its shape.
        logMethod(args, method) {
          if (typeof args[1] === 'string') args[1] = redactText(args[1]);
          method.apply(this, args);
        },
      },
    },
    write ? { write } : process.stdout,
  );
}

export class Logger {
  readonly #level: LogLevel;
  readonly #threshold: number;
  readonly #parent: Logger | undefined;
  readonly #bindings: Record<string, unknown>;
  #pino: Pino | undefined;

  private constructor(
    level: LogLevel,
    bindings: Record<string, unknown>,
    parent: Logger | undefined,
    root: Pino | undefined,
  ) {
    this.#level = level;
    this.#threshold = RANK[level];
    this.#bindings = bindings;
    this.#parent = parent;
    this.#pino = root;
  }

  static root(level: LogLevel, bindings: Record<string, unknown>, write?: Write): Logger {
    return new Logger(level, bindings, undefined, rootPino(level, bindings, write));
  }

  enabled(level: Exclude<LogLevel, 'silent'>): boolean {
    return RANK[level] >= this.#threshold;
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.debug >= this.#threshold) this.#resolved().debug(fields ?? {}, msg);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.info >= this.#threshold) this.#resolved().info(fields ?? {}, msg);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.warn >= this.#threshold) this.#resolved().warn(fields ?? {}, msg);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.error >= this.#threshold) this.#resolved().error(fields ?? {}, msg);
  }

  /**
   * The pino child is made when the first line is written, not here: every request makes a child
   * and most never write a line, so a child costs one allocation (docs/operations.md "Logging").
   */
  child(bindings: Record<string, unknown>): Logger {
    return new Logger(this.#level, bindings, this, undefined);
  }

  #resolved(): Pino {
    // pino runs its bindings formatter on the root's bindings only, so a child's are redacted here.
    this.#pino ??= this.#parent!.#resolved().child(redactFields(this.#bindings));
    return this.#pino;
  }
}

/** `write` receives each line (a test's sink); without it, lines go to stdout. */
export function createLogger(level: LogLevel, bindings: Record<string, unknown> = {}, write?: Write): Logger {
  return Logger.root(level, bindings, write);
}

import type { Database } from '../db/database.js';

export interface CliContext {
  /** Opens the database on first use, so `--help` needs none. */
  db(): Database;
  out(line: string): void;
}

/** Raised for a user's mistake: printed without a stack, exit code 2. */
export class UsageError extends Error {}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: string[], ctx: CliContext): Promise<void>;
}

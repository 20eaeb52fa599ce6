import type { Database } from '../db/database.js';
import type { ServiceDeps } from '../services/context.js';

export interface CliContext {
  /** Opens the database on first use, so `--help` needs none. */
  db(): Database;
  /**
   * What services need (database, Temporal, configuration, logger), built on first use from the
   * same settings as the server's and closed when the command ends.
   */
  services(): Promise<ServiceDeps>;
  /** The command's output (stdout): what a script reads. */
  out(line: string): void;
  /** Notes for the operator (stderr): warnings, and progress when the output is JSON. */
  err(line: string): void;
  /** Asks on the operator's terminal; undefined when stdin is not a terminal. */
  readonly ask: ((question: string) => Promise<string>) | undefined;
}

/** Raised for a user's mistake: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** Exit codes every command shares (docs/operations.md "Operator CLI"). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Resolves with the exit code, or nothing for 0. */
  run(argv: string[], ctx: CliContext): Promise<number | undefined>;
}

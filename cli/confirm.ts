import { type CliContext, UsageError } from './command.js';

/** A command that changes the plane cannot be confirmed without a terminal: say so before any work. */
export const noTerminal = (what: string) =>
  new UsageError(`stdin is not a terminal, so the ${what} cannot be confirmed; pass --force to start it`);

/** The operator's "yes" on the terminal, or `--force`, which is warned. */
export async function confirmed(
  ctx: CliContext,
  what: string,
  question: string,
  force: boolean,
): Promise<boolean> {
  if (force) {
    ctx.err(`warning: --force: starting the ${what} without confirmation`);
    return true;
  }
  if (!ctx.ask) throw noTerminal(what);
  return (await ctx.ask(`${question} Type "yes" to start: `)).trim().toLowerCase() === 'yes';
}

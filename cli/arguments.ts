import { userInfo } from 'node:os';
import type { Actor } from '../domain/actors.js';
import { MIGRATION_MODES, type MigrationMode } from '../domain/migrations/states.js';
import { UsageError } from './command.js';
import { withArticle } from './words.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one positional argument of a command, a UUID. */
export function uuidArgument(positionals: readonly string[], what: string): string {
  const [value, ...extra] = positionals;
  if (!value) throw new UsageError(`name the ${what} by its uuid`);
  if (extra.length > 0) throw new UsageError(`one ${what} at a time (also given: ${extra.join(' ')})`);
  if (!UUID.test(value)) throw new UsageError(`${value} is not ${withArticle(what)} uuid`);
  return value.toLowerCase();
}

export function optionalUuid(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (!UUID.test(value)) throw new UsageError(`--${option} must be a uuid`);
  return value.toLowerCase();
}

/** `--mode`, written as SPEC.md does (LIVE_IF_POSSIBLE) or in lower case with dashes (live-if-possible). */
export function modeOption(value: string | undefined): MigrationMode {
  const mode = value?.toUpperCase().replaceAll('-', '_');
  if (!mode || !(MIGRATION_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--mode must be one of ${MIGRATION_MODES.join(', ')}`);
  return mode as MigrationMode;
}

/** Who acts from the CLI: no panel user, so the system on behalf of the operator's login. */
export function operatorActor(): Extract<Actor, { type: 'system' }> {
  let login = 'operator';
  try {
    login = userInfo().username || login;
  } catch {
    // A container user without a passwd entry has no name.
  }
  return { type: 'system', name: `cli:${login}` };
}

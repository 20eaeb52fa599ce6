import type { MoveMode } from '../../domain/moves/states.js';
import { modeOption } from '../arguments.js';
import { referenceArgument } from '../references.js';

/** What an operator gives a preflight or a start, checked and not yet resolved. */
export interface AskArguments {
  /** The instance's uuid or name. */
  readonly instance: string;
  readonly mode: MoveMode;
  /** The kind's own options (`--target`; `--from` and `--to`), as given. */
  readonly options: Readonly<Record<string, string | undefined>>;
}

/** The instance, `--mode` and the kind's own options of a preflight or a start, read from its command line. */
export function askArguments(
  askOptions: Readonly<Record<string, unknown>>,
  positionals: readonly string[],
  values: Readonly<Record<string, string | boolean | undefined>>,
): AskArguments {
  const instance = referenceArgument(positionals, 'instance');
  const mode = modeOption(typeof values.mode === 'string' ? values.mode : undefined);
  const options = Object.fromEntries(
    Object.keys(askOptions).map((name) => {
      const value = values[name];
      return [name, typeof value === 'string' ? value : undefined];
    }),
  );
  return { instance, mode, options };
}

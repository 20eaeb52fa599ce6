import { parseArgs } from 'node:util';
import type { MoveBody } from '../../wire/serializers/moves/move.js';
import { uuidArgument } from '../arguments.js';
import type { Command } from '../command.js';
import type { MoveAskBase, MoveCliKind, PreflightBody } from './kind.js';

/** `cloudsvc:<kind>:status`: one move as the admin API shows it, as text or with `--json`. */
export function moveStatusCommand<
  Body extends MoveBody,
  Report extends PreflightBody,
  Ask extends MoveAskBase,
>(kind: MoveCliKind<Body, Report, Ask>, words: Pick<Command, 'name' | 'summary' | 'usage'>): Command {
  return {
    ...words,
    async run(argv, ctx) {
      const { positionals, values } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { json: { type: 'boolean', default: false } },
      });
      const id = uuidArgument(positionals, kind.noun);
      const body = await kind.show(await ctx.services(), id);
      if (values.json) ctx.out(JSON.stringify(body));
      else for (const line of kind.text(body)) ctx.out(line);
      return undefined;
    },
  };
}

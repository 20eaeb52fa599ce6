import { parseArgs } from 'node:util';
import type { MoveBody } from '../../wire/serializers/moves/move.js';
import { type Command, EXIT } from '../command.js';
import { askArguments } from './ask.js';
import type { MoveAskBase, MoveCliKind, PreflightBody } from './kind.js';

/**
 * `cloudsvc:<kind>:preflight` (SPEC.md §4): read-only, zero mutations; exit 1 when blocked, so a
 * script can test it.
 */
export function movePreflightCommand<
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
        options: {
          ...kind.askOptions,
          mode: { type: 'string', default: 'AUTO' },
          json: { type: 'boolean', default: false },
        },
      });
      const ask = await kind.ask(ctx, askArguments(kind.askOptions, positionals, values));
      const report = await kind.preflight(await ctx.services(), ask);
      if (values.json) ctx.out(JSON.stringify(report));
      else for (const line of kind.preflightText(report)) ctx.out(line);
      return report.attributes.ok ? EXIT.ok : EXIT.failed;
    },
  };
}

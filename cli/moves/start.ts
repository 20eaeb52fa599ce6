import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { ServiceDeps } from '../../services/context.js';
import type { MoveBody } from '../../wire/serializers/moves/move.js';
import { operatorActor } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { confirmed, noTerminal } from '../confirm.js';
import { askArguments } from './ask.js';
import type { MoveAskBase, MoveCliKind, PreflightBody } from './kind.js';
import { capitalized, historyLine } from './text.js';

/** Where watching stops: the move committed, ended, or waits for an operator. */
const SETTLED: readonly string[] = ['COMPLETED', 'CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED'];
const SUCCEEDED: readonly string[] = ['COMPLETED', 'CLEANED_UP'];
const POLL_MS = 500;

/** Prints each state as the move records it, until it settles; the last body read. */
async function watch<Body extends MoveBody>(
  show: () => Promise<Body>,
  print: (line: string) => void,
): Promise<Body> {
  let shown = 0;
  for (;;) {
    const body = await show();
    for (const entry of body.attributes.history.slice(shown)) print(historyLine(entry));
    shown = body.attributes.history.length;
    if (SETTLED.includes(body.attributes.state)) return body;
    await sleep(POLL_MS);
  }
}

/**
 * `cloudsvc:<kind>:start` (SPEC.md §4): the real preflight, printed; then the move requested once
 * the operator confirms it on a terminal (without one, only with `--force`, which is warned), and
 * each state shown as it happens until the move settles. `--dry-run` runs the preflight and
 * changes nothing; `--no-wait` returns once requested.
 */
export function moveStartCommand<
  Body extends MoveBody,
  Report extends PreflightBody,
  Ask extends MoveAskBase,
>(kind: MoveCliKind<Body, Report, Ask>, words: Pick<Command, 'name' | 'summary' | 'usage'>): Command {
  const Noun = capitalized(kind.noun);
  const follow = (what: string, id: string) => `cloudsvc cloudsvc:${kind.command}:${what} ${id}`;
  return {
    ...words,
    async run(argv, ctx) {
      const { positionals, values } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          ...kind.askOptions,
          mode: { type: 'string' },
          reason: { type: 'string' },
          force: { type: 'boolean', default: false },
          'dry-run': { type: 'boolean', default: false },
          'no-wait': { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
        },
      });
      const given = askArguments(kind.askOptions, positionals, values);
      // Known before any work: this command line cannot start a move.
      if (!values['dry-run'] && !values.force && !ctx.ask) throw noTerminal(kind.noun);
      const ask = await kind.ask(ctx, given);
      const deps: ServiceDeps = await ctx.services();
      // Progress and notes go where they do not mix with the JSON a script reads.
      const note = values.json ? ctx.err : ctx.out;

      const report = await kind.preflight(deps, ask);
      if (values.json && (values['dry-run'] || !report.attributes.ok)) ctx.out(JSON.stringify(report));
      else for (const line of kind.preflightText(report)) note(line);
      if (!report.attributes.ok) {
        note('Not started: the preflight found blockers.');
        return EXIT.failed;
      }
      if (values['dry-run']) {
        note('Dry run: nothing was requested or changed.');
        return EXIT.ok;
      }
      if (!(await confirmed(ctx, kind.noun, kind.question(ask, report), values.force))) {
        note('Not started.');
        return EXIT.failed;
      }

      const id = await kind.request(
        deps,
        operatorActor(),
        { ...ask, reason: values.reason, correlationId: randomUUID() },
        report,
      );
      const requested = await kind.show(deps, id);
      note(`${Noun} ${id} requested; workflow ${requested.attributes.workflow_id}`);
      if (requested.attributes.temporal_ui_url) note(`  ${requested.attributes.temporal_ui_url}`);
      if (values['no-wait']) {
        if (values.json) ctx.out(JSON.stringify(requested));
        else note(`Follow it with: ${follow('status', id)}`);
        return EXIT.ok;
      }

      note(`States as they happen (Ctrl-C stops watching; the ${kind.noun} goes on):`);
      const settled = await watch(() => kind.show(deps, id), note);
      const state = settled.attributes.state;
      if (values.json) ctx.out(JSON.stringify(settled));
      const kept = state === 'COMPLETED' ? kind.kept(settled) : undefined;
      if (kept) note(`Completed. ${kept}`);
      else if (state === 'RECOVERY_REQUIRED') note(`Waiting for an operator: ${follow('recover', id)}`);
      else note(`${Noun} ${state}.`);
      return SUCCEEDED.includes(state) ? EXIT.ok : EXIT.failed;
    },
  };
}

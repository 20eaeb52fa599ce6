import { parseArgs } from 'node:util';
import { allowedActions } from '../../domain/moves/control.js';
import { RECOVERY_DECISIONS, type RecoveryDecision } from '../../domain/moves/states.js';
import type { ServiceDeps } from '../../services/context.js';
import type { MoveBody } from '../../wire/serializers/moves/move.js';
import { operatorActor, uuidArgument } from '../arguments.js';
import { type Command, UsageError } from '../command.js';
import type { MoveAskBase, MoveCliKind, PreflightBody } from './kind.js';
import { capitalized, detailText } from './text.js';

const isDecision = (action: string): action is RecoveryDecision =>
  (RECOVERY_DECISIONS as readonly string[]).includes(action);

/** The decisions the move's run accepts now (domain/moves/control.ts): none unless it waits. */
const possibleDecisions = (body: MoveBody): RecoveryDecision[] =>
  allowedActions({
    state: body.attributes.state,
    pastPointOfNoReturn: body.attributes.point_of_no_return_passed,
    failedStep: body.attributes.failed_step,
  }).filter(isDecision);

/** `--mark` and `--reason`, checked: a decision goes with the reason it is recorded with. */
function markOf(values: { mark?: string | undefined; reason?: string | undefined }) {
  if (values.reason !== undefined && values.mark === undefined)
    throw new UsageError('--reason goes with --mark');
  if (values.mark === undefined) return undefined;
  if (!isDecision(values.mark))
    throw new UsageError(`--mark must be one of ${RECOVERY_DECISIONS.join(', ')}`);
  const reason = values.reason?.trim();
  if (!reason) throw new UsageError('--mark needs --reason <text>: it is recorded with the decision');
  return { decision: values.mark, reason };
}

/**
 * `cloudsvc:<kind>:recover` (SPEC.md §4): read-only unless `--mark`. Shows the failed step, what the
 * panel knows around the move and the decisions possible now; `--mark <decision> --reason <text>`
 * records one, which the run acts on.
 */
export function moveRecoverCommand<
  Body extends MoveBody,
  Report extends PreflightBody,
  Ask extends MoveAskBase,
>(kind: MoveCliKind<Body, Report, Ask>, words: Pick<Command, 'name' | 'summary' | 'usage'>): Command {
  async function view(deps: ServiceDeps, body: Body) {
    const { facts, lines } = await kind.situation(deps, body);
    const decisions = possibleDecisions(body);
    return { json: { [body.object]: body, ...facts, decisions }, lines: viewText(body, lines, decisions) };
  }

  function viewText(body: Body, situation: readonly string[], decisions: readonly RecoveryDecision[]) {
    const m = body.attributes;
    const step = m.failed_step ?? '(none)';
    return [
      `${capitalized(kind.noun)} ${m.uuid}: ${m.state}`,
      `  failed step  ${step}${m.failure ? `: ${detailText(m.failure)}` : ''}`,
      ...situation,
      ...(m.recovery
        ? [`  decided      ${m.recovery.decision} by ${m.recovery.by}: ${m.recovery.reason ?? ''}`]
        : []),
      ...(decisions.length === 0
        ? [`Nothing to decide: the ${kind.noun} is ${m.state}, not waiting for recovery.`]
        : [
            `Possible decisions (cloudsvc:${kind.command}:recover ${m.uuid} --mark <decision> --reason <text>):`,
            ...decisions.map((d) => `  ${d.padEnd(20)}  ${kind.decisions[d](step)}`),
            kind.caution,
          ]),
    ];
  }

  return {
    ...words,
    async run(argv, ctx) {
      const { positionals, values } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          mark: { type: 'string' },
          reason: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      });
      const id = uuidArgument(positionals, kind.noun);
      const mark = markOf(values);
      const deps = await ctx.services();
      if (mark) {
        const after = await kind.decide(deps, operatorActor(), { id, ...mark });
        if (values.json) ctx.out(JSON.stringify(after));
        else ctx.out(`Recorded ${mark.decision} on ${kind.noun} ${id}; the workflow acts on it now.`);
        return undefined;
      }
      const { json, lines } = await view(deps, await kind.show(deps, id));
      if (values.json) ctx.out(JSON.stringify(json));
      else for (const line of lines) ctx.out(line);
      return undefined;
    },
  };
}

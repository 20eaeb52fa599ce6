import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ACTIVE_EVACUATION_STATES } from '../../domain/evacuations/states.js';
import { evacuationPlan } from '../../services/evacuations/plan.js';
import { showEvacuation } from '../../services/evacuations/show.js';
import { startEvacuation } from '../../services/evacuations/start.js';
import { serializeShownEvacuation } from '../../wire/serializers/evacuation.js';
import { serializeEvacuationPlan } from '../../wire/serializers/evacuation-plan.js';
import { modeOption, operatorActor } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { confirmed, noTerminal } from '../confirm.js';
import { countOption, failureOption } from '../evacuation-options.js';
import { evacuationText, planText, progressLine } from '../evacuation-text.js';
import { hypervisorByReference, referenceArgument } from '../references.js';
import { counted } from '../words.js';

const POLL_MS = 1000;

/**
 * Drains a hypervisor after the operator saw the plan and confirmed it on a terminal; without one,
 * only with `--force`, which is warned. `--dry-run` runs the real plan and changes nothing. The
 * progress is shown as it changes, until the evacuation ends (Ctrl-C stops watching only).
 */
export const evacuationStartCommand: Command = {
  name: 'cloudsvc:evacuation:start',
  summary: 'Drain a hypervisor: plan, confirm, put it in maintenance and migrate its instances away',
  usage:
    'cloudsvc:evacuation:start <hypervisor uuid|name> --mode=<mode> [--max-parallel=N] [--max-per-target=N] ' +
    '[--on-failure=skip|retry|pause] [--max-attempts=N] [--reason=TEXT] [--force] [--dry-run] [--no-wait] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        mode: { type: 'string' },
        'max-parallel': { type: 'string' },
        'max-per-target': { type: 'string' },
        'on-failure': { type: 'string' },
        'max-attempts': { type: 'string' },
        reason: { type: 'string' },
        force: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const reference = referenceArgument(positionals, 'hypervisor');
    const mode = modeOption(values.mode);
    const maxParallel = countOption(values['max-parallel'], 'max-parallel', 64);
    const maxParallelPerTarget = countOption(values['max-per-target'], 'max-per-target', 64);
    const maxAttempts = countOption(values['max-attempts'], 'max-attempts', 10);
    const onFailure = failureOption(values['on-failure']);
    if (!values['dry-run'] && !values.force && !ctx.ask) throw noTerminal('evacuation');
    const hypervisorId = await hypervisorByReference(ctx.db(), reference);
    const deps = await ctx.services();
    const note = values.json ? ctx.err : ctx.out;

    const plan = serializeEvacuationPlan(await evacuationPlan(deps, { hypervisorId, mode }));
    if (values.json && values['dry-run']) ctx.out(JSON.stringify(plan));
    else for (const line of planText(plan)) note(line);
    if (values['dry-run']) {
      note('Dry run: nothing was started or changed.');
      return EXIT.ok;
    }
    const { hypervisor, moves, instances } = plan.attributes;
    const question = `Put ${hypervisor.name} in maintenance and move ${moves.length} of its ${counted(instances, 'instance')} away?`;
    if (!(await confirmed(ctx, 'evacuation', question, values.force))) {
      note('Not started.');
      return EXIT.failed;
    }
    const { evacuationId } = await startEvacuation(deps, operatorActor(), {
      hypervisorId,
      policy: {
        mode,
        ...(maxParallel ? { maxParallel } : {}),
        ...(maxParallelPerTarget ? { maxParallelPerTarget } : {}),
        ...(onFailure ? { onFailure } : {}),
        ...(maxAttempts ? { maxAttempts } : {}),
      },
      reason: values.reason,
      correlationId: randomUUID(),
    });
    note(
      `Evacuation ${evacuationId} started; follow it with: cloudsvc cloudsvc:evacuation:status ${evacuationId}`,
    );
    let body = serializeShownEvacuation(await showEvacuation(deps, evacuationId));
    if (!values['no-wait']) {
      let last = '';
      for (;;) {
        const line = progressLine(body);
        if (line !== last) note(`  ${line}`);
        last = line;
        if (!ACTIVE_EVACUATION_STATES.includes(body.attributes.state)) break;
        await sleep(POLL_MS);
        body = serializeShownEvacuation(await showEvacuation(deps, evacuationId));
      }
      if (!values.json) for (const line of evacuationText(body)) note(line);
    }
    if (values.json) ctx.out(JSON.stringify(body));
    const { state, progress } = body.attributes;
    if (values['no-wait']) return EXIT.ok;
    return state === 'completed' && progress.moved + progress.cancelled === progress.total
      ? EXIT.ok
      : EXIT.failed;
  },
};

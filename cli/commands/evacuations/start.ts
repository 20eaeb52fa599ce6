import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { evacuationPlan } from '../../../services/evacuations/plan.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { startEvacuation } from '../../../services/evacuations/start.js';
import { serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { serializeEvacuationPlan } from '../../../wire/serializers/moves/evacuation-plan.js';
import { modeOption, operatorActor } from '../../arguments.js';
import { type Command, EXIT } from '../../command.js';
import { confirmed, noTerminal } from '../../confirm.js';
import { CONVERGENCE_OPTIONS, CONVERGENCE_USAGE, convergenceOptions } from '../../convergence-options.js';
import { WINDOW_OPTIONS, windowOptions } from '../../evacuation-options.js';
import { evacuationText, planText } from '../../evacuation-text.js';
import { exitOfEnded, watchEvacuation } from '../../evacuation-watch.js';
import { hypervisorByReference, referenceArgument } from '../../references.js';
import { counted } from '../../words.js';

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
    '[--on-failure=skip|retry|pause] [--max-attempts=N] [--reason=TEXT] [--force] [--dry-run] [--no-wait] [--json] ' +
    CONVERGENCE_USAGE,
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        mode: { type: 'string' },
        ...WINDOW_OPTIONS,
        ...CONVERGENCE_OPTIONS,
        reason: { type: 'string' },
        force: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const reference = referenceArgument(positionals, 'hypervisor');
    const mode = modeOption(values.mode);
    const window = windowOptions(values);
    const convergence = convergenceOptions(values);
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
        ...window,
      },
      convergence,
      reason: values.reason,
      correlationId: randomUUID(),
    });
    note(
      `Evacuation ${evacuationId} started; follow it with: cloudsvc cloudsvc:evacuation:status ${evacuationId}`,
    );
    if (values['no-wait']) {
      if (values.json)
        ctx.out(JSON.stringify(serializeShownEvacuation(await showEvacuation(deps, evacuationId))));
      return EXIT.ok;
    }
    const body = await watchEvacuation(deps, evacuationId, note);
    if (values.json) ctx.out(JSON.stringify(body));
    else for (const line of evacuationText(body)) note(line);
    return exitOfEnded(body);
  },
};

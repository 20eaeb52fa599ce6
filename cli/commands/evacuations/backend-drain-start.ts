import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startBackendDrain } from '../../../services/evacuations/backend-drain.js';
import { backendDrainPlan } from '../../../services/evacuations/backend-plan.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { serializeBackendDrainPlan } from '../../../wire/serializers/moves/backend-drain-plan.js';
import { serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { modeOption, operatorActor } from '../../arguments.js';
import { type Command, EXIT } from '../../command.js';
import { confirmed, noTerminal } from '../../confirm.js';
import { countOption, failureOption } from '../../evacuation-options.js';
import { backendDrainPlanText, progressLine } from '../../evacuation-text.js';
import { hypervisorByReference, referenceArgument } from '../../references.js';
import { BACKEND_OPTIONS, backendsOf } from '../../storage-move-options.js';
import { counted } from '../../words.js';

/**
 * Drains one of a hypervisor's storage backends after the operator saw the plan and confirmed it
 * on a terminal (or `--force`, warned). `--dry-run` runs the real plan and changes nothing. It is
 * an evacuation of kind `backend`: follow, pause, resume or cancel it with `cloudsvc:evacuation:*`.
 */
export const backendDrainStartCommand: Command = {
  name: 'cloudsvc:backend-drain:start',
  summary: 'Move every disk off one of a hypervisor’s storage backends, confirmed on the terminal',
  usage:
    'cloudsvc:backend-drain:start <hypervisor uuid|name> --from=<backend> --to=<backend> --mode=<mode> [--max-parallel=N] ' +
    '[--on-failure=skip|retry|pause] [--max-attempts=N] [--reason=TEXT] [--force] [--dry-run] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...BACKEND_OPTIONS,
        mode: { type: 'string' },
        'max-parallel': { type: 'string' },
        'on-failure': { type: 'string' },
        'max-attempts': { type: 'string' },
        reason: { type: 'string' },
        force: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const hypervisor = referenceArgument(positionals, 'hypervisor');
    const backends = backendsOf(values);
    const mode = modeOption(values.mode);
    const maxParallel = countOption(values['max-parallel'], 'max-parallel', 64);
    const maxAttempts = countOption(values['max-attempts'], 'max-attempts', 10);
    const onFailure = failureOption(values['on-failure']);
    if (!values['dry-run'] && !values.force && !ctx.ask) throw noTerminal('backend drain');
    const request = { hypervisorId: await hypervisorByReference(ctx.db(), hypervisor), ...backends, mode };
    const deps = await ctx.services();
    const note = values.json ? ctx.err : ctx.out;
    const plan = serializeBackendDrainPlan(await backendDrainPlan(deps, request));
    if (values.json && values['dry-run']) ctx.out(JSON.stringify(plan));
    else for (const line of backendDrainPlanText(plan)) note(line);
    if (values['dry-run']) {
      note('Dry run: nothing was started or changed.');
      return EXIT.ok;
    }
    const question = `Move the disks of ${counted(plan.attributes.moves.length, 'instance')} from ${request.from} to ${request.to}?`;
    if (!(await confirmed(ctx, 'backend drain', question, values.force))) {
      note('Not started.');
      return EXIT.failed;
    }
    const { evacuationId } = await startBackendDrain(deps, operatorActor(), {
      ...request,
      policy: {
        mode: request.mode,
        ...(maxParallel ? { maxParallel } : {}),
        ...(onFailure ? { onFailure } : {}),
        ...(maxAttempts ? { maxAttempts } : {}),
      },
      reason: values.reason,
      correlationId: randomUUID(),
    });
    const body = serializeShownEvacuation(await showEvacuation(deps, evacuationId));
    note(
      `Backend drain ${evacuationId} started (${progressLine(body)}); follow it with: cloudsvc cloudsvc:evacuation:status ${evacuationId}`,
    );
    if (values.json) ctx.out(JSON.stringify(body));
    return EXIT.ok;
  },
};

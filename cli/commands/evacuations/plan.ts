import { parseArgs } from 'node:util';
import { evacuationPlan } from '../../../services/evacuations/plan.js';
import { serializeEvacuationPlan } from '../../../wire/serializers/moves/evacuation-plan.js';
import { modeOption } from '../../arguments.js';
import { type Command, EXIT } from '../../command.js';
import { planText } from '../../evacuation-text.js';
import { hypervisorByReference, referenceArgument } from '../../references.js';

/** Read-only, zero mutations; exit 1 when an instance cannot move, so a script can test it. */
export const evacuationPlanCommand: Command = {
  name: 'cloudsvc:evacuation:plan',
  summary:
    'Plan draining a hypervisor: each instance’s target and strategy, and what cannot move (read-only)',
  usage: 'cloudsvc:evacuation:plan <hypervisor uuid|name> [--mode=<mode>] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { mode: { type: 'string', default: 'AUTO' }, json: { type: 'boolean', default: false } },
    });
    const hypervisor = referenceArgument(positionals, 'hypervisor');
    const mode = modeOption(values.mode);
    const hypervisorId = await hypervisorByReference(ctx.db(), hypervisor);
    const plan = serializeEvacuationPlan(await evacuationPlan(await ctx.services(), { hypervisorId, mode }));
    if (values.json) ctx.out(JSON.stringify(plan));
    else for (const line of planText(plan)) ctx.out(line);
    return plan.attributes.unmovable.length === 0 ? EXIT.ok : EXIT.failed;
  },
};

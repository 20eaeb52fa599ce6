import { parseArgs } from 'node:util';
import { serializeEvacuationPlan } from '../../api/serializers/evacuation-plan.js';
import { evacuationPlan } from '../../services/evacuations/plan.js';
import { modeOption, uuidArgument } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { planText } from '../evacuation-text.js';

/** Read-only, zero mutations; exit 1 when an instance cannot move, so a script can test it. */
export const evacuationPlanCommand: Command = {
  name: 'cloudsvc:evacuation:plan',
  summary:
    'Plan draining a hypervisor: each instance’s target and strategy, and what cannot move (read-only)',
  usage: 'cloudsvc:evacuation:plan <hypervisor_uuid> [--mode=<mode>] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { mode: { type: 'string', default: 'AUTO' }, json: { type: 'boolean', default: false } },
    });
    const hypervisorId = uuidArgument(positionals, 'hypervisor');
    const plan = serializeEvacuationPlan(
      await evacuationPlan(await ctx.services(), { hypervisorId, mode: modeOption(values.mode) }),
    );
    if (values.json) ctx.out(JSON.stringify(plan));
    else for (const line of planText(plan)) ctx.out(line);
    return plan.attributes.unmovable.length === 0 ? EXIT.ok : EXIT.failed;
  },
};

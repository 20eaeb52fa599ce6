import { parseArgs } from 'node:util';
import { backendDrainPlan } from '../../../services/evacuations/backend-plan.js';
import { serializeBackendDrainPlan } from '../../../wire/serializers/moves/backend-drain-plan.js';
import { modeOption } from '../../arguments.js';
import { type Command, EXIT } from '../../command.js';
import { backendDrainPlanText } from '../../evacuation-text.js';
import { hypervisorByReference, referenceArgument } from '../../references.js';
import { BACKEND_OPTIONS, backendsOf } from '../../storage-move-options.js';

/** Read-only, zero mutations; exit 1 when an instance cannot move, so a script can test it. */
export const backendDrainPlanCommand: Command = {
  name: 'cloudsvc:backend-drain:plan',
  summary: 'Plan moving every disk off one of a hypervisor’s storage backends (read-only)',
  usage:
    'cloudsvc:backend-drain:plan <hypervisor uuid|name> --from=<backend> --to=<backend> [--mode=<mode>] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...BACKEND_OPTIONS,
        mode: { type: 'string', default: 'AUTO' },
        json: { type: 'boolean', default: false },
      },
    });
    const hypervisor = referenceArgument(positionals, 'hypervisor');
    const backends = backendsOf(values);
    const mode = modeOption(values.mode);
    const hypervisorId = await hypervisorByReference(ctx.db(), hypervisor);
    const plan = serializeBackendDrainPlan(
      await backendDrainPlan(await ctx.services(), { hypervisorId, ...backends, mode }),
    );
    if (values.json) ctx.out(JSON.stringify(plan));
    else for (const line of backendDrainPlanText(plan)) ctx.out(line);
    return plan.attributes.unmovable.length === 0 ? EXIT.ok : EXIT.failed;
  },
};

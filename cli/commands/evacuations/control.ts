import { parseArgs } from 'node:util';
import { type EvacuationControl, mayControl } from '../../../domain/evacuations/states.js';
import { controlEvacuation, getEvacuation } from '../../../services/evacuations/control.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { operatorActor, uuidArgument } from '../../arguments.js';
import { type Command, EXIT } from '../../command.js';
import { evacuationText } from '../../evacuation-text.js';

const DOES: Record<EvacuationControl, string> = {
  pause: 'Pause an evacuation: no new move starts; those under way finish',
  resume: 'Resume a paused evacuation',
  cancel:
    'Cancel an evacuation: no new move starts; those under way before their point of no return roll back, the others finish',
};

/**
 * Pause, resume or cancel through the same service as the admin API. `--dry-run` asks the real
 * rule whether the evacuation allows it, shows what is under way, and changes nothing.
 */
function controlCommand(control: EvacuationControl): Command {
  return {
    name: `cloudsvc:evacuation:${control}`,
    summary: DOES[control],
    usage: `cloudsvc:evacuation:${control} <evacuation_uuid> [--reason=TEXT] [--dry-run] [--json]`,
    async run(argv, ctx) {
      const { positionals, values } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          reason: { type: 'string' },
          'dry-run': { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
        },
      });
      const evacuationId = uuidArgument(positionals, 'evacuation');
      const deps = await ctx.services();
      if (values['dry-run']) {
        const verdict = mayControl((await getEvacuation(deps, evacuationId)).state, control);
        const body = serializeShownEvacuation(await showEvacuation(deps, evacuationId));
        if (values.json)
          ctx.out(JSON.stringify({ allowed: verdict.ok, ...(verdict.ok ? {} : verdict), evacuation: body }));
        else {
          for (const line of evacuationText(body)) ctx.out(line);
          ctx.out(
            verdict.ok
              ? `Dry run: ${control} is allowed; nothing was changed.`
              : `Dry run: refused, ${verdict.code}: ${verdict.detail}`,
          );
        }
        return verdict.ok ? EXIT.ok : EXIT.failed;
      }
      await controlEvacuation(deps, operatorActor(), { evacuationId, control, reason: values.reason });
      const body = serializeShownEvacuation(await showEvacuation(deps, evacuationId));
      if (values.json) ctx.out(JSON.stringify(body));
      else for (const line of evacuationText(body)) ctx.out(line);
      return EXIT.ok;
    },
  };
}

export const evacuationPauseCommand = controlCommand('pause');
export const evacuationResumeCommand = controlCommand('resume');
export const evacuationCancelCommand = controlCommand('cancel');

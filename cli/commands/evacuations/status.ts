import { parseArgs } from 'node:util';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { uuidArgument } from '../../arguments.js';
import type { Command } from '../../command.js';
import { evacuationText } from '../../evacuation-text.js';

export const evacuationStatusCommand: Command = {
  name: 'cloudsvc:evacuation:status',
  summary: 'Show an evacuation: state, policy, progress, and each instance with its migration',
  usage: 'cloudsvc:evacuation:status <evacuation_uuid> [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false } },
    });
    const body = serializeShownEvacuation(
      await showEvacuation(await ctx.services(), uuidArgument(positionals, 'evacuation')),
    );
    if (values.json) ctx.out(JSON.stringify(body));
    else for (const line of evacuationText(body)) ctx.out(line);
    return undefined;
  },
};

import { parseArgs } from 'node:util';
import { serializePreflight } from '../../api/serializers/migration.js';
import { migrationPreflight } from '../../services/migrations/preflight.js';
import { modeOption, optionalUuid, uuidArgument } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { preflightText } from '../migration-text.js';

/** SPEC.md §4: read-only, zero mutations; exit 1 when blocked, so a script can test it. */
export const migrationPreflightCommand: Command = {
  name: 'cloudsvc:migration:preflight',
  summary: 'Check whether an instance can migrate: blockers, warnings, strategies, candidates (read-only)',
  usage: 'cloudsvc:migration:preflight <instance_uuid> [--target=<hypervisor_uuid>] [--mode=<mode>] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: 'string' },
        mode: { type: 'string', default: 'AUTO' },
        json: { type: 'boolean', default: false },
      },
    });
    const instanceId = uuidArgument(positionals, 'instance');
    const request = {
      instanceId,
      targetId: optionalUuid(values.target, 'target'),
      mode: modeOption(values.mode),
    };
    const report = serializePreflight(await migrationPreflight(await ctx.services(), request));
    if (values.json) ctx.out(JSON.stringify(report));
    else for (const line of preflightText(report)) ctx.out(line);
    return report.attributes.ok ? EXIT.ok : EXIT.failed;
  },
};

import { parseArgs } from 'node:util';
import { migrationPreflight } from '../../services/migrations/preflight.js';
import { serializePreflight } from '../../wire/serializers/migration.js';
import { modeOption } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { preflightText } from '../migration-text.js';
import { instanceByReference, optionalHypervisor, referenceArgument } from '../references.js';

/** SPEC.md §4: read-only, zero mutations; exit 1 when blocked, so a script can test it. */
export const migrationPreflightCommand: Command = {
  name: 'cloudsvc:migration:preflight',
  summary: 'Check whether an instance can migrate: blockers, warnings, strategies, candidates (read-only)',
  usage:
    'cloudsvc:migration:preflight <instance uuid|name> [--target=<hypervisor uuid|name>] [--mode=<mode>] [--json]',
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
    const instance = referenceArgument(positionals, 'instance');
    const mode = modeOption(values.mode);
    const request = {
      instanceId: await instanceByReference(ctx.db(), instance),
      targetId: await optionalHypervisor(ctx.db(), values.target, 'target'),
      mode,
    };
    const report = serializePreflight(await migrationPreflight(await ctx.services(), request));
    if (values.json) ctx.out(JSON.stringify(report));
    else for (const line of preflightText(report)) ctx.out(line);
    return report.attributes.ok ? EXIT.ok : EXIT.failed;
  },
};

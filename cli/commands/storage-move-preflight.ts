import { parseArgs } from 'node:util';
import { readStorageMovePreflight } from '../../services/storage-moves/preflight.js';
import { serializeStorageMovePreflight } from '../../wire/serializers/storage-move.js';
import { modeOption } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { instanceByReference, referenceArgument } from '../references.js';
import { BACKEND_OPTIONS, backendsOf } from '../storage-move-options.js';
import { storagePreflightText } from '../storage-move-text.js';

/** Read-only, zero mutations; exit 1 when blocked, so a script can test it. */
export const storageMovePreflightCommand: Command = {
  name: 'cloudsvc:storage-move:preflight',
  summary: 'Check whether an instance’s disks can move to another storage backend (read-only)',
  usage:
    'cloudsvc:storage-move:preflight <instance uuid|name> --from=<backend> --to=<backend> [--mode=<mode>] [--json]',
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
    const instance = referenceArgument(positionals, 'instance');
    const backends = backendsOf(values);
    const mode = modeOption(values.mode);
    const request = { instanceId: await instanceByReference(ctx.db(), instance), ...backends, mode };
    const { report } = await readStorageMovePreflight(await ctx.services(), request);
    const body = serializeStorageMovePreflight(request.instanceId, request, report);
    if (values.json) ctx.out(JSON.stringify(body));
    else for (const line of storagePreflightText(body)) ctx.out(line);
    return report.ok ? EXIT.ok : EXIT.failed;
  },
};

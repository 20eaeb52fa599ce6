import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { StorageMoveState } from '../../domain/storage-moves/states.js';
import { getStorageMove } from '../../services/storage-moves/control.js';
import { readStorageMovePreflight } from '../../services/storage-moves/preflight.js';
import { requestStorageMove } from '../../services/storage-moves/request.js';
import { serializeStorageMove, serializeStorageMovePreflight } from '../../wire/serializers/storage-move.js';
import { modeOption, operatorActor } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { confirmed, noTerminal } from '../confirm.js';
import { instanceByReference, referenceArgument } from '../references.js';
import { BACKEND_OPTIONS, backendsOf } from '../storage-move-options.js';
import { storageHistoryLine, storageMoveText, storagePreflightText } from '../storage-move-text.js';

const SETTLED: readonly StorageMoveState[] = [
  'COMPLETED',
  'CLEANING_UP',
  'CLEANED_UP',
  'ROLLED_BACK',
  'RECOVERY_REQUIRED',
];
const POLL_MS = 500;

/**
 * Requests a storage move after the operator saw its preflight and confirmed it on a terminal;
 * without one, only with `--force`, which is warned. `--dry-run` runs the real preflight and
 * changes nothing. The states are shown as they happen, until the move settles.
 */
export const storageMoveStartCommand: Command = {
  name: 'cloudsvc:storage-move:start',
  summary:
    'Move an instance’s disks to another storage backend, confirmed on the terminal, and show its states',
  usage:
    'cloudsvc:storage-move:start <instance uuid|name> --from=<backend> --to=<backend> --mode=<mode> [--reason=TEXT] ' +
    '[--force] [--dry-run] [--no-wait] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...BACKEND_OPTIONS,
        mode: { type: 'string' },
        reason: { type: 'string' },
        force: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const instance = referenceArgument(positionals, 'instance');
    const backends = backendsOf(values);
    const mode = modeOption(values.mode);
    if (!values['dry-run'] && !values.force && !ctx.ask) throw noTerminal('storage move');
    const request = { instanceId: await instanceByReference(ctx.db(), instance), ...backends, mode };
    const deps = await ctx.services();
    const note = values.json ? ctx.err : ctx.out;
    const { report } = await readStorageMovePreflight(deps, request);
    const preflight = serializeStorageMovePreflight(request.instanceId, request, report);
    if (values.json && (values['dry-run'] || !report.ok)) ctx.out(JSON.stringify(preflight));
    else for (const line of storagePreflightText(preflight)) note(line);
    if (!report.ok) {
      note('Not started: the preflight found blockers.');
      return EXIT.failed;
    }
    if (values['dry-run']) {
      note('Dry run: nothing was requested or changed.');
      return EXIT.ok;
    }
    const question = `Move the disks of instance ${request.instanceId} from ${request.from} to ${request.to} (${report.strategy})?`;
    if (!(await confirmed(ctx, 'storage move', question, values.force))) {
      note('Not started.');
      return EXIT.failed;
    }
    const move = await requestStorageMove(deps, operatorActor(), {
      ...request,
      reason: values.reason,
      correlationId: randomUUID(),
    });
    note(`Storage move ${move.id} requested; workflow ${move.workflow_id}`);
    let body = serializeStorageMove(move, deps.config);
    if (!values['no-wait']) {
      let shown = 0;
      for (;;) {
        body = serializeStorageMove(await getStorageMove(deps, move.id), deps.config);
        for (const entry of body.attributes.history.slice(shown)) note(storageHistoryLine(entry));
        shown = body.attributes.history.length;
        if (SETTLED.includes(body.attributes.state)) break;
        await sleep(POLL_MS);
      }
      if (!values.json) for (const line of storageMoveText(body).slice(0, 6)) note(line);
    }
    if (values.json) ctx.out(JSON.stringify(body));
    if (values['no-wait']) return EXIT.ok;
    return ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP'].includes(body.attributes.state) ? EXIT.ok : EXIT.failed;
  },
};

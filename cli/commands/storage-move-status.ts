import { parseArgs } from 'node:util';
import { getStorageMove } from '../../services/storage-moves/control.js';
import { serializeStorageMove } from '../../wire/serializers/storage-move.js';
import { uuidArgument } from '../arguments.js';
import type { Command } from '../command.js';
import { storageMoveText } from '../storage-move-text.js';

export const storageMoveStatusCommand: Command = {
  name: 'cloudsvc:storage-move:status',
  summary: 'Show a storage move: disks, backends, state, history, failure, recovery, Temporal run',
  usage: 'cloudsvc:storage-move:status <move_uuid> [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false } },
    });
    const deps = await ctx.services();
    const body = serializeStorageMove(
      await getStorageMove(deps, uuidArgument(positionals, 'storage move')),
      deps.config,
    );
    if (values.json) ctx.out(JSON.stringify(body));
    else for (const line of storageMoveText(body)) ctx.out(line);
    return undefined;
  },
};

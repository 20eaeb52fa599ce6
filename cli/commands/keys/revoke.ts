import { parseArgs } from 'node:util';
import { ApiError } from '../../../domain/errors.js';
import { revokeKey } from '../../../services/keys.js';
import { type Command, UsageError } from '../../command.js';

export const keysRevoke: Command = {
  name: 'keys:revoke',
  summary: 'Revoke a client key, application key or console-gateway credential',
  usage: 'keys:revoke <key uuid | hint>',
  async run(argv, ctx) {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
    const [target] = positionals;
    if (!target) throw new UsageError('name the key by its uuid or its hint');
    let revoked: string[];
    try {
      revoked = await revokeKey({ db: ctx.db() }, { idOrHint: target });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SVC-RES-404')
        throw new UsageError(`no active key ${target}`);
      throw error;
    }
    // API processes cache a key lookup for AUTH_CACHE_TTL_MS; say so, so nobody is surprised.
    ctx.out(`revoked ${revoked.join(', ')} (refused everywhere within AUTH_CACHE_TTL_MS)`);
  },
};

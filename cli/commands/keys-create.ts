import { parseArgs } from 'node:util';
import { createCredential } from '../../db/repositories/credentials.js';
import { findUserByEmail } from '../../db/repositories/users.js';
import { type Command, UsageError } from '../command.js';

const TYPES = {
  client: 'client',
  application: 'application',
  'console-gateway': 'console_gateway',
} as const;

export const keysCreate: Command = {
  name: 'keys:create',
  summary: 'Issue a client key, an application key or a console-gateway credential (shown once)',
  usage:
    'keys:create --type client|application --user <email> [--label <text>] [--json]\n' +
    '       keys:create --type console-gateway [--label <text>] [--json]',
  async run(argv, ctx) {
    const { values } = parseArgs({
      args: argv,
      options: {
        type: { type: 'string' },
        user: { type: 'string' },
        label: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const type = TYPES[values.type as keyof typeof TYPES];
    if (!type) throw new UsageError(`--type must be one of ${Object.keys(TYPES).join(', ')}`);

    let userId: string | null = null;
    if (type !== 'console_gateway') {
      if (!values.user) throw new UsageError('--user <email> is required for client and application keys');
      const user = await findUserByEmail(ctx.db(), values.user);
      if (!user) throw new UsageError(`no user with email ${values.user}`);
      if (type === 'application' && !user.is_admin) {
        throw new UsageError('application keys are issued only to administrators (users:create --admin)');
      }
      userId = user.id;
    }
    const issued = await createCredential(ctx.db(), { type, userId, label: values.label ?? null });
    if (values.json) {
      ctx.out(JSON.stringify({ uuid: issued.id, type, hint: issued.hint, token: issued.token }));
    } else {
      ctx.out(`${type} key ${issued.id} (${issued.hint}…), shown this once:`);
      ctx.out(issued.token);
    }
  },
};

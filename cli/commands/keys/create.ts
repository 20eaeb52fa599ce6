import { parseArgs } from 'node:util';
import { checkApiVersion } from '../../../domain/api-versions/versions.js';
import { ApiError } from '../../../domain/errors.js';
import { issueKey, type KeyRequest } from '../../../services/keys.js';
import { type Command, UsageError } from '../../command.js';

const TYPES = {
  client: 'client',
  application: 'application',
  'console-gateway': 'console_gateway',
} as const;

export const keysCreate: Command = {
  name: 'keys:create',
  summary: 'Issue a client key, an application key or a console-gateway credential (shown once)',
  usage:
    'keys:create --type client|application --user <email> [--api-version <YYYY-MM-DD>] [--label <text>] [--json]\n' +
    '       keys:create --type console-gateway [--label <text>] [--json]',
  async run(argv, ctx) {
    const { values } = parseArgs({
      args: argv,
      options: {
        type: { type: 'string' },
        user: { type: 'string' },
        label: { type: 'string' },
        'api-version': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const type = TYPES[values.type as keyof typeof TYPES];
    if (!type) throw new UsageError(`--type must be one of ${Object.keys(TYPES).join(', ')}`);
    const label = values.label ?? null;
    let request: KeyRequest;
    if (type === 'console_gateway') {
      if (values['api-version']) throw new UsageError('--api-version pins client and application keys only');
      request = { type, label };
    } else {
      if (!values.user) throw new UsageError('--user <email> is required for client and application keys');
      // The key's pin (docs/api.md "Versions"): the current version unless named.
      const pinned = values['api-version'] ? checkApiVersion(values['api-version']) : undefined;
      if (pinned && !pinned.ok) throw new UsageError(`--api-version: ${pinned.detail}`);
      request = {
        type,
        userEmail: values.user,
        label,
        ...(pinned?.ok ? { apiVersion: pinned.version } : {}),
      };
    }

    let issued: Awaited<ReturnType<typeof issueKey>>;
    try {
      issued = await issueKey({ db: ctx.db() }, request);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SVC-RES-404')
        throw new UsageError(`no user with email ${values.user}`);
      if (error instanceof ApiError && error.code === 'SVC-REQ-400')
        throw new UsageError('application keys are issued only to administrators (users:create --admin)');
      throw error;
    }
    if (values.json) {
      ctx.out(
        JSON.stringify({
          uuid: issued.id,
          type,
          hint: issued.hint,
          token: issued.token,
          api_version: issued.apiVersion,
        }),
      );
    } else {
      ctx.out(`${type} key ${issued.id} (${issued.hint}…), shown this once:`);
      ctx.out(issued.token);
    }
  },
};

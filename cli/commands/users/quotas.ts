import { parseArgs } from 'node:util';
import { findUser, findUserByEmail } from '../../../db/repositories/accounts/users.js';
import { INT4_MAX } from '../../../domain/input-bounds.js';
import { QUOTA_RESOURCES, type QuotaLimits, type QuotaResource } from '../../../domain/quotas.js';
import { type QuotaStanding, quotaStanding, setUserQuotas } from '../../../services/quotas.js';
import { operatorActor } from '../../arguments.js';
import { type Command, UsageError } from '../../command.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const usersQuotas: Command = {
  name: 'users:quotas',
  summary: 'Show a user’s quotas and usage, or change some of its limits (--set)',
  usage:
    'users:quotas <email|uuid> [--set <resource>=<limit|unlimited> …] [--json]\n' +
    `       resources: ${QUOTA_RESOURCES.join(', ')}`,
  async run(argv, ctx) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        set: { type: 'string', multiple: true, default: [] },
        json: { type: 'boolean', default: false },
      },
    });
    const [reference, ...extra] = positionals;
    if (!reference) throw new UsageError('name the user by its email or its uuid');
    if (extra.length > 0) throw new UsageError(`one user at a time (also given: ${extra.join(' ')})`);
    const changes = parseChanges(values.set);
    const db = ctx.db();
    const user = UUID.test(reference)
      ? await findUser(db, reference.toLowerCase())
      : await findUserByEmail(db, reference.toLowerCase());
    if (!user) throw new UsageError(`no user is ${reference}`);

    let standing = await quotaStanding(db, user.id);
    if (Object.keys(changes).length > 0) {
      // The API sets all six at once; the CLI changes only the ones named and keeps the rest.
      standing = await setUserQuotas({ db }, operatorActor(), {
        userId: user.id,
        limits: { ...standing.limits, ...changes },
        correlationId: null,
      });
    }
    if (values.json)
      ctx.out(JSON.stringify({ user: user.id, limits: standing.limits, usage: standing.usage }));
    else for (const line of describe(user.email, standing)) ctx.out(line);
  },
};

/** `--set cpu_cores=8 --set ips=unlimited` (or `cpu_cores=8,ips=unlimited`) as limits to change. */
function parseChanges(sets: readonly string[]): Partial<Record<QuotaResource, number | null>> {
  const changes: Partial<Record<QuotaResource, number | null>> = {};
  for (const pair of sets.flatMap((s) => s.split(','))) {
    const [resource, value] = pair.split('=');
    if (!(QUOTA_RESOURCES as readonly string[]).includes(resource ?? ''))
      throw new UsageError(`--set ${pair}: the resource is one of ${QUOTA_RESOURCES.join(', ')}`);
    const limit = value === 'unlimited' ? null : Number(value);
    if (limit !== null && !(value && Number.isInteger(limit) && limit >= 0 && limit <= INT4_MAX))
      throw new UsageError(`--set ${pair}: a limit is an integer from 0 to ${INT4_MAX}, or unlimited`);
    changes[resource as QuotaResource] = limit;
  }
  return changes;
}

function describe(email: string, { limits, usage }: QuotaStanding): string[] {
  const width = Math.max(...QUOTA_RESOURCES.map((r) => r.length));
  return [
    `quotas of ${email} (usage / limit):`,
    ...QUOTA_RESOURCES.map(
      (r) => `  ${r.padEnd(width)}  ${usage[r]} / ${(limits as QuotaLimits)[r] ?? 'unlimited'}`,
    ),
  ];
}

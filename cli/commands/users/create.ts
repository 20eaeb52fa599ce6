import { parseArgs } from 'node:util';
import { ApiError } from '../../../domain/errors.js';
import { USER_EMAIL } from '../../../domain/users.js';
import { createUser } from '../../../services/users.js';
import { type Command, UsageError } from '../../command.js';

export const usersCreate: Command = {
  name: 'users:create',
  summary: 'Create a user (a customer, or with --admin an administrator)',
  usage: 'users:create --email <email> [--name <name>] [--admin] [--json]',
  async run(argv, ctx) {
    const { values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        admin: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    if (!values.email || !USER_EMAIL.test(values.email)) throw new UsageError('--email <email> is required');
    let user: Awaited<ReturnType<typeof createUser>>;
    try {
      user = await createUser(
        { db: ctx.db() },
        { email: values.email, name: values.name ?? values.email.split('@')[0]!, isAdmin: values.admin },
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SVC-CONFLICT-409')
        throw new UsageError(`a user with email ${values.email} exists already`);
      throw error;
    }
    ctx.out(
      values.json
        ? JSON.stringify({ uuid: user.id, email: user.email, name: user.name, admin: user.is_admin })
        : `created user ${user.email} (${user.id})${user.is_admin ? ' as administrator' : ''}`,
    );
  },
};

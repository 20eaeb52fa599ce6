import { parseArgs } from 'node:util';
import { isUniqueViolation } from '../../db/errors.js';
import { insertUser } from '../../db/repositories/users.js';
import { type Command, UsageError } from '../command.js';

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
    if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email))
      throw new UsageError('--email <email> is required');
    try {
      const user = await insertUser(ctx.db(), {
        email: values.email,
        name: values.name ?? values.email.split('@')[0]!,
        isAdmin: values.admin,
      });
      ctx.out(
        values.json
          ? JSON.stringify({ uuid: user.id, email: user.email, name: user.name, admin: user.is_admin })
          : `created user ${user.email} (${user.id})${user.is_admin ? ' as administrator' : ''}`,
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new UsageError(`a user with email ${values.email} exists`);
      throw error;
    }
  },
};

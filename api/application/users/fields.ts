import { text } from '../../../domain/input-bounds.js';
import { KEY_LABEL_MAX, USER_EMAIL, USER_EMAIL_MAX, USER_NAME_MAX } from '../../../domain/users.js';
import { PageQuery } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const name = text({ max: USER_NAME_MAX, trim: true }).openapi({ example: 'Ada Lovelace' });

export const UserCreateFields = z
  .strictObject({
    email: text({ max: USER_EMAIL_MAX }).regex(USER_EMAIL, { message: 'Must be an email address.' }).openapi({
      example: 'ada@example.com',
      description: 'Unique, case-insensitively; kept in lower case.',
    }),
    name,
    is_admin: z
      .boolean()
      .default(false)
      .openapi({ description: 'An administrator may hold application keys.' }),
  })
  .openapi('UserCreate');

export const UserUpdateFields = z
  .strictObject({
    name,
    is_admin: z.boolean(),
    disabled: z.boolean().openapi({ description: 'A disabled user’s keys are refused everywhere.' }),
  })
  .partial()
  .openapi('UserUpdate');

export const UserListQuery = PageQuery.extend({
  email: text({ max: USER_EMAIL_MAX }).regex(/^\S+$/).optional().openapi({
    description: 'Only users whose email contains it (case-insensitively).',
  }),
});

export const KeyCreateFields = z
  .strictObject({
    type: z
      .enum(['client', 'application'])
      .openapi({ description: 'Application keys only for administrators.' }),
    label: text({ max: KEY_LABEL_MAX, trim: true })
      .nullable()
      .default(null)
      .openapi({ example: 'billing sync' }),
  })
  .openapi('UserKeyCreate');

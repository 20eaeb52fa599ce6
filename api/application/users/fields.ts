import { int4, text } from '../../../domain/input-bounds.js';
import { KEY_LABEL_MAX, USER_EMAIL, USER_EMAIL_MAX, USER_NAME_MAX } from '../../../domain/users.js';
import { ApiVersionName } from '../../../wire/api-version.js';
import { externalIdField } from '../../../wire/requests/external-id.js';
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
    external_id: externalIdField('user').default(null),
  })
  .openapi('UserCreate');

export const UserUpdateFields = z
  .strictObject({
    name,
    is_admin: z.boolean(),
    disabled: z.boolean().openapi({ description: 'A disabled user’s keys are refused everywhere.' }),
    external_id: externalIdField('user'),
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
    api_version: ApiVersionName.optional().openapi({
      description:
        'The version its requests are answered in unless they name one; the current one if not given.',
    }),
  })
  .openapi('UserKeyCreate');

export const KeyPinFields = z
  .strictObject({
    api_version: ApiVersionName.openapi({
      description: 'The version the key’s requests are answered in from now on, unless they name one.',
    }),
  })
  .openapi('UserKeyPin');

const quotaLimit = (what: string) =>
  int4()
    .nullable()
    .openapi({ description: `${what}; null: unlimited.`, example: null });

/** Every limit at once: a PUT replaces the set, so one left out is refused rather than cleared. */
export const UserQuotasFields = z
  .strictObject({
    instances: quotaLimit('Instances not deleted'),
    cpu_cores: quotaLimit('vCPUs of those instances'),
    memory_mb: quotaLimit('Memory of those instances, in MB'),
    disk_mb: quotaLimit('Disk in MB, root disks and volumes together'),
    volumes: quotaLimit('Volumes'),
    ips: quotaLimit('IP addresses of either family, floating ones included'),
  })
  .openapi('UserQuotasReplace');

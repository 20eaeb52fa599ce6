import type { UserRow } from '../../../db/repositories/accounts/users.js';
import { pinnedVersion } from '../../../domain/api-versions/versions.js';
import { ApiVersionName } from '../../api-version.js';
import { ExternalIdAttribute } from '../../requests/external-id.js';
import { z } from '../../zod.js';

export const UserEnvelope = z
  .object({
    object: z.literal('user'),
    attributes: z.object({
      uuid: z.string().uuid(),
      email: z.string().openapi({ example: 'ada@example.com' }),
      name: z.string().openapi({ example: 'Ada Lovelace' }),
      is_admin: z.boolean(),
      disabled: z.boolean().openapi({ description: 'A disabled user’s keys are refused everywhere.' }),
      disabled_at: z.string().nullable(),
      external_id: ExternalIdAttribute,
      created_at: z.string(),
    }),
  })
  .openapi('User');

export function serializeUser(row: UserRow): z.infer<typeof UserEnvelope> {
  return {
    object: 'user',
    attributes: {
      uuid: row.id,
      email: row.email,
      name: row.name,
      is_admin: row.is_admin,
      disabled: row.disabled_at !== null,
      disabled_at: row.disabled_at?.toISOString() ?? null,
      external_id: row.external_id,
      created_at: row.created_at.toISOString(),
    },
  };
}

export const UserKeyEnvelope = z
  .object({
    object: z.literal('api_key'),
    attributes: z.object({
      uuid: z.string().uuid(),
      type: z.enum(['client', 'application']),
      label: z.string().nullable(),
      hint: z
        .string()
        .openapi({ description: 'The key’s first characters, to tell it apart; never the key.' }),
      api_version: ApiVersionName.openapi({
        description:
          'The version the key is pinned to: its requests are answered in it unless they send `Cloudsvc-Version`.',
      }),
      revoked: z.boolean(),
      created_at: z.string(),
      revoked_at: z.string().nullable(),
    }),
  })
  .openapi('UserKey');

export function serializeUserKey(row: {
  id: string;
  type: string;
  label: string | null;
  hint: string;
  api_version: string | null;
  created_at: Date;
  revoked_at: Date | null;
}): z.infer<typeof UserKeyEnvelope> {
  return {
    object: 'api_key',
    attributes: {
      uuid: row.id,
      type: row.type as 'client' | 'application',
      label: row.label,
      hint: row.hint,
      api_version: pinnedVersion(row.api_version),
      revoked: row.revoked_at !== null,
      created_at: row.created_at.toISOString(),
      revoked_at: row.revoked_at?.toISOString() ?? null,
    },
  };
}

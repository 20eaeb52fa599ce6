import type { UserRow } from '../../../db/repositories/accounts/users.js';
import { PRIVATE_NICS_PER_INSTANCE } from '../../../domain/networks/private-networks.js';
import { VOLUMES_PER_INSTANCE } from '../../../domain/volumes.js';
import type { Config } from '../../../platform/config.js';
import { z } from '../../zod.js';

const limit = (description: string) => z.number().int().openapi({ description });

const AccountLimits = z
  .object({
    instance_creates_per_minute: limit(
      'Instance creates per minute (`INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE`); past it, 429 with Retry-After.',
    ),
    ssh_keys: limit('SSH keys on the account (`SSH_KEYS_MAX_PER_USER`).'),
    volumes: limit('Volumes on the account (`MAX_VOLUMES_PER_USER`).'),
    volume_max_size_mb: limit('The largest volume, in MB (`VOLUME_MAX_SIZE_MB`).'),
    private_networks: limit('Private networks on the account (`MAX_PRIVATE_NETWORKS_PER_USER`).'),
    backups_per_instance: limit('Backups of one instance (`MAX_BACKUPS_PER_INSTANCE`).'),
    backup_schedules_per_instance: limit(
      'Backup schedules of one instance (`MAX_BACKUP_SCHEDULES_PER_INSTANCE`).',
    ),
    snapshots_per_instance: limit('Snapshots of one instance (`MAX_SNAPSHOTS_PER_INSTANCE`).'),
    scheduled_actions_per_instance: limit(
      'Scheduled actions of one instance (`MAX_SCHEDULED_ACTIONS_PER_INSTANCE`).',
    ),
    addresses_per_instance: limit('IP addresses of one instance (`MAX_ADDRESSES_PER_INSTANCE`).'),
    firewall_rules_per_instance: limit('Firewall rules of one instance (`FIREWALL_RULES_MAX`).'),
    isos_per_instance: limit('ISOs in one instance’s library (`MAX_ISOS_PER_INSTANCE`).'),
    iso_max_size_mb: limit('The largest ISO, in MB (`ISO_MAX_SIZE_MB`).'),
    volumes_per_instance: limit('Volumes attached to one instance.'),
    private_networks_per_instance: limit('Private networks one instance is on.'),
    console_sessions_per_instance: limit(
      'Live console sessions of one instance (`MAX_CONSOLE_SESSIONS_PER_INSTANCE`).',
    ),
  })
  .openapi('AccountLimits');

export const AccountEnvelope = z
  .object({
    object: z.literal('account'),
    attributes: z.object({
      uuid: z
        .string()
        .uuid()
        .openapi({ description: 'The caller’s user uuid: what an administrator names the account by.' }),
      name: z.string().openapi({ example: 'Ada Lovelace' }),
      email: z.string().openapi({ example: 'ada@example.com' }),
      created_at: z.string(),
      limits: AccountLimits.openapi({
        description: 'The limits in force for this account, as this panel is configured.',
      }),
    }),
  })
  .openapi('Account');

/** The limits every account has today: the panel's settings (none is set per account yet). */
function limitsOf(config: Config): z.infer<typeof AccountLimits> {
  return {
    instance_creates_per_minute: config.INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE,
    ssh_keys: config.SSH_KEYS_MAX_PER_USER,
    volumes: config.MAX_VOLUMES_PER_USER,
    volume_max_size_mb: config.VOLUME_MAX_SIZE_MB,
    private_networks: config.MAX_PRIVATE_NETWORKS_PER_USER,
    backups_per_instance: config.MAX_BACKUPS_PER_INSTANCE,
    backup_schedules_per_instance: config.MAX_BACKUP_SCHEDULES_PER_INSTANCE,
    snapshots_per_instance: config.MAX_SNAPSHOTS_PER_INSTANCE,
    scheduled_actions_per_instance: config.MAX_SCHEDULED_ACTIONS_PER_INSTANCE,
    addresses_per_instance: config.MAX_ADDRESSES_PER_INSTANCE,
    firewall_rules_per_instance: config.FIREWALL_RULES_MAX,
    isos_per_instance: config.MAX_ISOS_PER_INSTANCE,
    iso_max_size_mb: config.ISO_MAX_SIZE_MB,
    volumes_per_instance: VOLUMES_PER_INSTANCE,
    private_networks_per_instance: PRIVATE_NICS_PER_INSTANCE,
    console_sessions_per_instance: config.MAX_CONSOLE_SESSIONS_PER_INSTANCE,
  };
}

export function serializeAccount(row: UserRow, config: Config): z.infer<typeof AccountEnvelope> {
  return {
    object: 'account',
    attributes: {
      uuid: row.id,
      name: row.name,
      email: row.email,
      created_at: row.created_at.toISOString(),
      limits: limitsOf(config),
    },
  };
}

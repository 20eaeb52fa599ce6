import { findInstanceOfUser, type Instance } from '../../db/repositories/instances/instances.js';
import { findRestoreDefaults } from '../../db/repositories/storage/backups.js';
import type { Customer } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { type CreateContext, type CreateOutcome, createInstance } from '../instances/create.js';
import { backupFor } from './backup-actions.js';

export interface RestoreAsNewRequest {
  readonly instanceId: string;
  readonly backupId: string;
  readonly hostname: string;
  readonly name: string | undefined;
  readonly plan: string | undefined;
  readonly location: string | undefined;
  readonly sshKeyIds: readonly string[];
  readonly timezone: string | undefined;
}

/**
 * Restores the backup as a new instance, through instance creation itself (placement, reservation,
 * addresses, Idempotency-Key, rate limit): the new instance's disk is written from the backup
 * instead of an image. The plan, location and timezone default to the backed-up instance's; the
 * plan's disk must hold the backup. The backup stays `available` and cannot be deleted while the
 * new instance is provisioned from it.
 */
export async function restoreBackupAsNew<T>(
  deps: ServiceDeps,
  actor: Customer,
  request: RestoreAsNewRequest,
  context: CreateContext,
  answer: (instance: Instance) => T,
): Promise<CreateOutcome<T>> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, request.instanceId);
  if (!instance) throw notFound();
  const backup = await backupFor(deps, instance, request.backupId, 'restore_new');
  const defaults = await findRestoreDefaults(deps.db, instance.id);
  if (!defaults) throw notFound();
  const plan = request.plan ?? defaults.plan;
  if (!plan) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'plan', detail: 'Name a plan.' }] });
  if (!defaults.image)
    throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance’s image is no longer known.' });
  return createInstance(
    deps,
    actor,
    {
      ownerId: actor.userId,
      name: request.name ?? request.hostname,
      hostname: request.hostname,
      plan,
      image: defaults.image,
      location: request.location ?? defaults.location,
      sshKeyIds: request.sshKeyIds,
      timezone: request.timezone ?? instance.timezone,
      source: { backupId: backup.id, checksum: backup.checksum!, minDiskMb: defaults.disk_mb },
    },
    context,
    answer,
  );
}

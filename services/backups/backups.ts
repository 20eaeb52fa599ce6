import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { holdNewBackup } from '../../db/records/backups.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { findInstanceOfUser, type Instance } from '../../db/repositories/instances/instances.js';
import {
  type BackupRow,
  findBackupOfInstance,
  findRestoreDefaults,
  setBackupProtected,
  takeBackupFor,
} from '../../db/repositories/storage/backups.js';
import type { Customer } from '../../domain/actors.js';
import {
  BACKUP_ACTIONS,
  type BackupAction,
  defaultArtifactName,
  mayActOnBackup,
} from '../../domain/backups.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { type CreateContext, type CreateOutcome, createInstance } from '../instances/create.js';
import { beginInstanceOperation } from '../instances/operations.js';

/** The customer's instance, placed on a hypervisor (whose agent does the work); 404 or 409 otherwise. */
export async function placedInstance(
  deps: ServiceDeps,
  actor: Customer,
  instanceId: string,
): Promise<Instance & { hypervisor_id: string }> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, instanceId);
  if (!instance) throw notFound();
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  return { ...instance, hypervisor_id: hypervisorId };
}

/** Takes a backup of the instance (running or stopped): 202 with the backup `creating`. */
export async function createBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; name: string | undefined; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backupId = randomUUID();
  let backup: BackupRow | undefined;
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'backup',
      workflowType: 'backupInstance',
      input: (operation) => ({ operation, backupId }),
      correlationId: request.correlationId,
    },
    async (trx) => {
      backup = await holdNewBackup(trx, deps.config, {
        id: backupId,
        instanceId: instance.id,
        userId: actor.userId,
        name: request.name ?? defaultArtifactName('backup', new Date()),
        policyId: null,
      });
    },
  );
  return backup!;
}

/** The backup, readable by its action: 404 when it is not the instance's, 409 when its state forbids. */
async function backupFor(
  deps: ServiceDeps,
  instance: { id: string },
  backupId: string,
  action: BackupAction,
): Promise<BackupRow> {
  const backup = await findBackupOfInstance(deps.db, instance.id, backupId);
  if (!backup) throw notFound();
  const verdict = mayActOnBackup(action, backup);
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  return backup;
}

/** Inside the operation's transaction: the backup moves to the action's state, or nothing begins. */
async function take(trx: Database, backup: BackupRow, action: BackupAction): Promise<void> {
  if (!(await takeBackupFor(trx, backup, action))) {
    const now = await findBackupOfInstance(trx, backup.instance_id, backup.id);
    if (!now) throw notFound();
    const verdict = mayActOnBackup(action, now);
    throw new ApiError('SVC-CONFLICT-409', {
      detail: verdict.ok
        ? 'An instance is being restored from the backup as a new instance; try again once it is running.'
        : verdict.detail,
    });
  }
}

/**
 * Restores the instance's disk from the backup, in place: the restored disk is written beside the
 * current one, checked against the backup's checksum and swapped in; on any failure the current
 * disk is kept (or put back). The instance is `restoring`, then the power state it had.
 */
export async function restoreBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; correlationId: string | null },
): Promise<Instance> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backup = await backupFor(deps, instance, request.backupId, 'restore');
  const begun = await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'restore',
      workflowType: 'restoreInstance',
      input: (operation) => ({
        operation,
        source: { kind: 'backup' as const, backupId: backup.id },
        checksum: backup.checksum!,
      }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, backup, 'restore'),
  );
  return { ...instance, status: begun.status };
}

/**
 * Reads the backup back from the store and compares it with the checksum recorded when it was
 * written: it stays (or becomes) `available` if they match, and is `corrupt` if not.
 */
export async function verifyBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backup = await backupFor(deps, instance, request.backupId, 'verify');
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'backup_verify',
      workflowType: 'verifyBackup',
      input: (operation) => ({ operation, backupId: backup.id, from: backup.state }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, backup, 'verify'),
  );
  return { ...backup, state: BACKUP_ACTIONS.verify.to };
}

/** Removes the backup from the store; a protected one is refused until its protection is removed. */
export async function deleteBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backup = await backupFor(deps, instance, request.backupId, 'delete');
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'backup_delete',
      workflowType: 'deleteBackup',
      input: (operation) => ({ operation, backupId: backup.id, from: backup.state }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, backup, 'delete'),
  );
  return { ...backup, state: BACKUP_ACTIONS.delete.to };
}

/**
 * Protects the backup from its schedule's retention and from deletion, or removes the protection.
 * A bookkeeping change: no operation, nothing on the hypervisor.
 */
export async function protectBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; protected: boolean; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, request.instanceId);
  if (!instance) throw notFound();
  return deps.db.transaction().execute(async (trx) => {
    const backup = await setBackupProtected(trx, instance.id, request.backupId, request.protected);
    if (!backup) {
      if (!(await findBackupOfInstance(trx, instance.id, request.backupId))) throw notFound();
      throw new ApiError('SVC-CONFLICT-409', { detail: 'The backup is being deleted.' });
    }
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event: request.protected ? 'instance.backup.protected' : 'instance.backup.unprotected',
      detail: { backup_id: backup.id },
      correlationId: request.correlationId,
    });
    return backup;
  });
}

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

import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { lockCandidate, reserveCapacity } from '../../db/repositories/hypervisors/placement.js';
import { lockGroupOfInstance, memberHostsOf } from '../../db/repositories/instances/placement-groups.js';
import { insertTransferToken } from '../../db/repositories/moves/transfer-tokens.js';
import { listVolumesOfInstance } from '../../db/repositories/storage/volumes.js';
import type { Resources } from '../../domain/capacity.js';
import { hashToken } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import { ROOT_DISK, volumeDisk } from '../../domain/migrations/disks.js';
import { fits } from '../../domain/placement.js';
import { groupForbids } from '../../domain/placement-groups.js';

/** A disk the migration moves, with the token its target redeems for it (in clear until sealed). */
export interface DiskToMove {
  readonly disk: string;
  readonly token: string;
  readonly sizeMb: number;
}

export interface VolumeToMove extends DiskToMove {
  readonly volumeId: string;
}

export interface DisksToMove {
  readonly root: DiskToMove;
  readonly volumes: readonly VolumeToMove[];
}

const newToken = () => `cst_${randomBytes(32).toString('base64url')}`;

/** The instance's root disk and each volume attached to it (their disks as made on the host). */
export async function disksToMove(
  db: Database,
  instance: { id: string; disk_mb: number },
): Promise<DisksToMove> {
  const volumes = await listVolumesOfInstance(db, instance.id);
  return {
    root: { disk: ROOT_DISK, token: newToken(), sizeMb: instance.disk_mb },
    volumes: volumes.map((v) => ({
      disk: volumeDisk(v.id),
      token: newToken(),
      volumeId: v.id,
      sizeMb: v.provisioned_mb ?? v.size_mb,
    })),
  };
}

const blocked = (code: string) =>
  new ApiError('MIGRATION_BLOCKED', { detail: `The migration is blocked: ${code}.` });

/**
 * In the transaction that begins the migration, after its operation took the instance: the room
 * on the target (re-checked under the target's row lock) held for the instance (at the size it is
 * to have there: a plan change's move holds the new size from its start) and for each of its volumes, and each disk's transfer token, stored as a hash. Refused when the volumes read before
 * are no longer the instance's (one was attached or detached meanwhile).
 */
export async function holdTarget(
  trx: Database,
  hold: {
    migrationId: string;
    instanceId: string;
    targetId: string;
    instance: Resources;
    disks: DisksToMove;
    tokenTtlMs: number;
    /** The refusal when the room is gone; default: the migration blocked for the target's capacity. */
    noRoom?: () => ApiError;
  },
): Promise<void> {
  const { root, volumes } = hold.disks;
  const now = (await listVolumesOfInstance(trx, hold.instanceId)).map((v) => v.id).sort();
  if (
    now.join() !==
    volumes
      .map((v) => v.volumeId)
      .sort()
      .join()
  )
    throw blocked('INSTANCE_BUSY');
  // A member of a spread group: its group's row locked before the target's, as a create into the
  // group locks them, so a create and a move never both take one host for the group.
  const group = await lockGroupOfInstance(trx, hold.instanceId);
  const spread = group && {
    policy: group.policy,
    memberHosts: await memberHostsOf(trx, group.id, hold.instanceId),
  };
  if (groupForbids(spread ?? null, hold.targetId)) throw blocked('PLACEMENT_GROUP_SPREAD');
  const locked = await lockCandidate(trx, hold.targetId);
  const volumesMb = volumes.reduce((sum, v) => sum + v.sizeMb, 0);
  if (!locked || !fits(locked, { ...hold.instance, disk_mb: hold.instance.disk_mb + volumesMb }))
    throw hold.noRoom?.() ?? blocked('TARGET_INSUFFICIENT_CAPACITY');
  await reserveCapacity(trx, {
    hypervisorId: hold.targetId,
    instanceId: hold.instanceId,
    purpose: 'migration',
    resources: hold.instance,
  });
  for (const volume of volumes)
    await reserveCapacity(trx, {
      hypervisorId: hold.targetId,
      instanceId: hold.instanceId,
      volumeId: volume.volumeId,
      purpose: 'migration',
      resources: { cpu_cores: 0, memory_mb: 0, disk_mb: volume.sizeMb },
    });
  for (const { disk, token } of [root, ...volumes])
    await insertTransferToken(trx, {
      migrationId: hold.migrationId,
      disk,
      tokenHash: hashToken(token),
      receiverHypervisorId: hold.targetId,
      ttlMs: hold.tokenTtlMs,
    });
}

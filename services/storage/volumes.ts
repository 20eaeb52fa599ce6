import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { findUser } from '../../db/repositories/accounts/users.js';
import { findLocationByCode } from '../../db/repositories/catalogue/catalog.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  findVolume,
  findVolumeOfUser,
  insertVolumeWithin,
  type VolumeRow,
} from '../../db/repositories/storage/volumes.js';
import { type Asker, actorName } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { checkVolumeSize } from '../../domain/volumes.js';
import type { ServiceDeps } from '../context.js';
import { holdQuotas } from '../quotas.js';

// A customer's volumes themselves; they go on and off instances through volume-attachments.ts
// and grow through volume-resize.ts.

export interface NewVolumeRequest {
  /** Whose volume it is: the customer asking, or the one an administrator names. */
  readonly ownerId: string;
  readonly name: string;
  readonly location: string;
  readonly backend: string;
  readonly sizeMb: number;
  readonly correlationId: string | null;
}

/**
 * Records a volume of the customer's in a location, on a storage backend, at most
 * MAX_VOLUMES_PER_USER of them and within the owner's quotas (a volume, its size as disk). Nothing is made on a hypervisor yet: the volume's disk is made,
 * and its room held, where it is first attached.
 */
export async function createVolume(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  actor: Asker,
  request: NewVolumeRequest,
): Promise<VolumeRow> {
  if (actor.type === 'user' && actor.userId !== request.ownerId) throw notFound();
  if (actor.type !== 'user' && !(await findUser(deps.db, request.ownerId)))
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'user', detail: 'No such user.' }] });
  const size = checkVolumeSize(request.sizeMb, deps.config.VOLUME_MAX_SIZE_MB);
  if (!size.ok)
    throw size.code === 'SVC-REQ-400'
      ? new ApiError('SVC-REQ-400', { fields: [{ field: 'size_mb', detail: size.detail }] })
      : new ApiError(size.code, { detail: size.detail });
  const location = await findLocationByCode(deps.db, request.location);
  if (!location)
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'location', detail: 'No such location.' }] });
  const limit = deps.config.MAX_VOLUMES_PER_USER;
  const volume = {
    id: randomUUID(),
    userId: request.ownerId,
    locationId: location.id,
    name: request.name,
    backend: request.backend,
    sizeMb: request.sizeMb,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      (await holdQuotas(trx, volume.userId))({ volumes: 1, disk_mb: volume.sizeMb });
      if (!(await insertVolumeWithin(trx, volume, limit)))
        throw new ApiError('SVC-QUOTA-409', { detail: `An account holds at most ${limit} volumes.` });
      await recordVolumeActivity(trx, actor, 'volume.created', volume, request.correlationId);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', {
        detail: `${actor.type === 'user' ? 'You have' : 'The customer has'} a volume of this name.`,
        cause: error,
      });
    throw error;
  }
  return (await findVolume(deps.db, volume.id))!;
}

/** The volume an asker may act on: a customer's own, any for an administrator; 404 otherwise. */
export async function volumeInReach(db: Database, asker: Asker, volumeId: string): Promise<VolumeRow> {
  const volume =
    asker.type === 'user'
      ? await findVolumeOfUser(db, asker.userId, volumeId)
      : await findVolume(db, volumeId);
  if (!volume) throw notFound();
  return volume;
}

/** A line in the owner's activity log, whoever acted. */
export function recordVolumeActivity(
  db: Database,
  actor: Asker,
  event: string,
  volume: { id: string; userId: string; name: string; sizeMb: number },
  correlationId: string | null,
  extra: Record<string, unknown> = {},
) {
  return recordActivity(db, {
    userId: volume.userId,
    actor: actorName(actor),
    event,
    detail: { volume_id: volume.id, name: volume.name, size_mb: volume.sizeMb, ...extra },
    correlationId,
  });
}

export interface VolumeOutcome {
  readonly volume: VolumeRow;
  /** Whether an operation began; not when the volume already was where it was asked to be. */
  readonly accepted: boolean;
}

/** What the activity log says of a volume. */
export const describe = (volume: VolumeRow) => ({
  id: volume.id,
  userId: volume.user_id,
  name: volume.name,
  sizeMb: volume.size_mb,
});

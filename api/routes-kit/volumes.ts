import type { Context } from 'hono';
import { findVolume, type VolumeRow } from '../../db/repositories/volumes.js';
import type { Asker } from '../../domain/actors.js';
import type { AppEnv } from '../../http/context.js';
import { deleteVolume } from '../../services/storage/volume-delete.js';

/** An attach's, detach's or resize's 202, in the Client and the Application API alike. */
export const VOLUME_CHANGE_ACCEPTED = 'Accepted: an operation of the instance changes the volume.';

/** A volume delete's 202, 204 and 409, in the Client and the Application API alike. */
export const VOLUME_DELETING =
  'Accepted: the volume is `deleting`; it is gone once its hypervisor removed it.';
export const volumeGone = { description: 'The volume is gone (it was on no hypervisor).' };
export const VOLUME_DELETE_CONFLICTS = 'The volume is on an instance or changing (SVC-INUSE-409).';

/**
 * Deletes the volume for `asker`: 204 when it is gone at once (it was never on a hypervisor), 202
 * with it `deleting` while its hypervisor removes its disk.
 */
export async function answerVolumeDelete<Body>(
  c: Context<AppEnv>,
  asker: Asker,
  volumeId: string,
  serialize: (row: VolumeRow) => Body,
) {
  const deps = c.get('deps');
  const outcome = await deleteVolume(deps, asker, { volumeId, correlationId: c.get('requestId') });
  const volume = outcome.gone ? undefined : await findVolume(deps.db, volumeId);
  // Gone already (a hypervisor quicker than this answer): as if it went at once.
  if (!volume) return c.body(null, 204);
  return c.json(serialize(volume), 202);
}

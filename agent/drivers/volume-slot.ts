import { VOLUMES_PER_INSTANCE } from '../../domain/volumes.js';
import { DriverFailure } from './driver.js';

/**
 * The lowest slot the instance's volumes leave free (1 to VOLUMES_PER_INSTANCE), or the failure
 * that retrying cannot mend: every driver gives slots the same way.
 */
export function freeVolumeSlot(
  volumes: Iterable<{ instance_id: string | null; slot: number | null }>,
  instanceId: string,
): number {
  const taken = new Set<number | null>();
  for (const v of volumes) if (v.instance_id === instanceId) taken.add(v.slot);
  let slot = 1;
  while (taken.has(slot)) slot++;
  if (slot > VOLUMES_PER_INSTANCE)
    throw new DriverFailure('NO_FREE_SLOT', 'the instance has no free slot for a volume', false);
  return slot;
}

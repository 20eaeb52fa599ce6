import type { IncomingVolume } from '../guests/state.js';

// The volumes a migrating guest brings, as its target first hears of them (the room they take
// here: agent/drivers/host-capacity.ts arrivalRoom).

/** The volumes that come with the guest, from `migration.prepare_target`, none arrived yet. */
export const expectedVolumes = (volumes: readonly { volume_id: string; size_mb: number }[] = []) =>
  Object.fromEntries(
    volumes.map((v): [string, IncomingVolume] => [
      v.volume_id,
      { size_mb: v.size_mb, endpoint: null, checksum: null, slot: null },
    ]),
  );

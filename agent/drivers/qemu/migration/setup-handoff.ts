import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { runningRoom } from '../../../../domain/instances/hot-resize.js';
import { DriverFailure } from '../../driver.js';
import { guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { QemuExport, QemuIncoming } from '../guests/state.js';
import { SEED_MAX_BYTES, type SetupHandoff, SetupHandoffBody } from './transfer-bodies.js';
import { pullHandoff, type Source } from './transfer-pulls.js';

/**
 * The source's side (see SetupHandoffBody): what the offered guest boots with besides its disk.
 * Served to the holder of the move's transport key only, like the disk.
 */
export function setupHandoff(guests: QemuGuests, offered: QemuExport): SetupHandoff | undefined {
  const instance = guests.state.instances[offered.instance_id];
  const dir = offered.dir ?? instance?.dir;
  if (!instance || !dir || instance.dir !== dir || !existsSync(dir)) return undefined;
  const { seed } = guestFiles(dir);
  const hasSeed = existsSync(seed) && statSync(seed).size <= SEED_MAX_BYTES;
  return {
    image: instance.image,
    addresses: instance.addresses ?? null,
    seed: hasSeed ? readFileSync(seed).toString('base64') : null,
    plugged: instance.plugged ?? [],
    volumes: Object.entries(guests.state.volumes ?? {}).flatMap(([volume_id, v]) =>
      v.instance_id === offered.instance_id && v.slot !== null ? [{ volume_id, slot: v.slot }] : [],
    ),
    growth: {
      cpu_cores: instance.cpu_cores,
      memory_mb: instance.memory_mb,
      ceiling: instance.ceiling ?? null,
      booted_ceiling: runningRoom(instance) ?? null,
      hot_added: instance.hot_added ?? { cpus: [], dimms: [] },
    },
  };
}

/**
 * The target's side: the source's handoff taken once, its seed put where the arriving guest's
 * boots attach it, its private NICs, size and room to grow kept for its command line. A target without the guest's image refuses: it could never boot it.
 */
export async function receiveSetupHandoff(
  guests: QemuGuests,
  incoming: QemuIncoming,
  source: Source,
  signal: AbortSignal,
): Promise<void> {
  if (incoming.setup_received) return;
  const handoff = await pullHandoff(
    source,
    'setup',
    {
      schema: SetupHandoffBody,
      maxLength: SEED_MAX_BYTES * 2,
      absent: { image: incoming.image ?? '', addresses: null, seed: null },
    },
    signal,
  );
  if (!handoff.image)
    throw new DriverFailure(
      'IMAGE_NOT_AVAILABLE',
      'the source did not say which image the guest boots',
      false,
    );
  guests.images.get(handoff.image);
  const { seed } = guestFiles(incoming.dir);
  if (handoff.seed) writeFileSync(seed, Buffer.from(handoff.seed, 'base64'), { mode: 0o600 });
  else rmSync(seed, { force: true });
  incoming.image = handoff.image;
  if (handoff.addresses) incoming.addresses = handoff.addresses;
  incoming.plugged = handoff.plugged ?? [];
  if (handoff.growth) {
    // The memory and vCPUs the guest's memory stream carries are the source's, whatever the panel
    // said when the move began: its QEMU here is started with exactly them.
    const { cpu_cores, memory_mb, ceiling, booted_ceiling, hot_added } = handoff.growth;
    Object.assign(incoming, { cpu_cores, memory_mb });
    if (ceiling) incoming.ceiling = ceiling;
    if (booted_ceiling !== undefined) incoming.booted_ceiling = booted_ceiling;
    if (hot_added.cpus.length > 0 || hot_added.dimms.length > 0) incoming.hot_added = hot_added;
  }
  for (const { volume_id, slot } of handoff.volumes ?? []) {
    const volume = incoming.volumes?.[volume_id];
    if (!volume)
      throw new DriverFailure(
        'VOLUME_NOT_PREPARED',
        'the source has a volume the target was not told of',
        false,
      );
    volume.slot = slot;
  }
  incoming.setup_received = true;
  guests.save();
}

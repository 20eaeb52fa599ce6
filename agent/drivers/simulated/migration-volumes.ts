import { createHash } from 'node:crypto';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../driver.js';
import type { IncomingInstance, MigrationState, VolumeContent } from './state.js';
import { openOffer, sealOffer } from './transport.js';

// The customer's volumes moving with a migrating instance on the simulated hypervisor. A volume's
// disk is its descriptor (id, size, slot); the sender's endpoint carries it under the move's
// transport key (transport.ts), the way a real endpoint is where the receiver reads the bytes from
// over TLS under that key. It lands in the same slot, as a guest's
// devices must be the same after a move.

const ENDPOINT_PREFIX = 'sim-volume:';

const checksumOf = (content: VolumeContent) =>
  createHash('sha256')
    .update(JSON.stringify([content.volume_id, content.size_mb, content.slot]))
    .digest('hex');

function expected(incoming: IncomingInstance, volumeId: string) {
  const volume = incoming.volumes?.[volumeId];
  if (!volume)
    throw new DriverFailure('VOLUME_NOT_PREPARED', 'the target was not told this volume comes', false);
  return volume;
}

/** The volumes that come with the guest, from `migration.prepare_target`, none arrived yet. */
export const expectedVolumes = (volumes: AgentTaskParams<'migration.prepare_target'>['volumes']) =>
  Object.fromEntries((volumes ?? []).map((v) => [v.volume_id, { size_mb: v.size_mb, arrived: null }]));

export function exportVolume(state: MigrationState, instanceId: string, volumeId: string, key: string) {
  const volume = state.volumes?.[volumeId];
  if (!volume || volume.instance_id !== instanceId || volume.slot === null)
    throw new DriverFailure('VOLUME_NOT_FOUND', 'no such volume on this instance here', false);
  const content: VolumeContent = { volume_id: volumeId, size_mb: volume.size_mb, slot: volume.slot };
  return {
    checksum: checksumOf(content),
    size_mb: volume.size_mb,
    endpoint: sealOffer(ENDPOINT_PREFIX, content, key),
  };
}

export async function transferVolume(
  incoming: IncomingInstance,
  volumeId: string,
  token: string,
  key: string,
  ctx: TaskContext,
) {
  const volume = expected(incoming, volumeId);
  const changed = volume.arrived === null;
  if (changed) {
    const { endpoint } = await ctx.redeemTransfer(token);
    const content = openOffer<VolumeContent>(endpoint, ENDPOINT_PREFIX, key);
    if (content.volume_id !== volumeId)
      throw new DriverFailure('TRANSFER_REFUSED', 'the sender offered another volume', false);
    volume.arrived = content;
  }
  const arrived = volume.arrived!;
  return { result: { checksum: checksumOf(arrived), size_mb: arrived.size_mb }, changed };
}

export function verifyVolume(incoming: IncomingInstance, volumeId: string) {
  const { arrived } = expected(incoming, volumeId);
  if (!arrived) throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this volume', false);
  return { checksum: checksumOf(arrived) };
}

/** The arrived guest's volumes become this host's, on it, in the slots they had. */
export function landVolumes(state: MigrationState, incoming: IncomingInstance): void {
  for (const [id, { arrived }] of Object.entries(incoming.volumes ?? {})) {
    if (!arrived) throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for a volume', false);
    state.volumes ??= {};
    state.volumes[id] = {
      size_mb: arrived.size_mb,
      instance_id: incoming.instance_id,
      slot: arrived.slot,
      created_at: new Date().toISOString(),
    };
  }
}

/** A discarded arrival takes the volumes it landed here with it. */
export function discardVolumes(state: MigrationState, incoming: IncomingInstance): void {
  for (const id of Object.keys(incoming.volumes ?? {}))
    if (state.volumes?.[id]?.instance_id === incoming.instance_id) delete state.volumes[id];
}

import { createHash } from 'node:crypto';
import { volumeOfDisk } from '../../../domain/migrations/disks.js';
import { DriverFailure } from '../driver.js';
import { transportKeyOf } from '../transport-key.js';
import { incomingOf, ownInstance, type TaskHandlers } from './migration-tasks.js';
import { exportVolume, transferVolume, verifyVolume } from './migration-volumes.js';
import { forgetOutgoing, noteOutgoing } from './retained-copies.js';
import type { DiskContent, SimulatedInstance } from './state.js';
import { openOffer, sealOffer } from './transport.js';

/**
 * The disks of a simulated migration. The root disk is the instance's content descriptor; its
 * checksum is what both sides compare. The sender's `endpoint` carries the descriptor the way a
 * real endpoint is where the receiver reads the bytes from; the receiver gets it only by redeeming
 * the disk's transfer token through the panel. A volume's disk goes the same way
 * (migration-volumes.ts).
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const diskChecksum = (disk: DiskContent) =>
  sha256(
    JSON.stringify([
      disk.image,
      disk.hostname,
      disk.timezone,
      disk.root_password_sha256,
      disk.disk_generation,
    ]),
  );

const contentOf = (instance: SimulatedInstance): DiskContent => ({
  image: instance.image,
  hostname: instance.hostname,
  timezone: instance.timezone,
  root_password_sha256: instance.root_password_sha256,
  disk_generation: instance.disk_generation,
  growth: {
    ...(instance.ceiling && { ceiling: instance.ceiling }),
    // A running guest moves live in the process it booted; a stopped one boots afresh over there.
    ...(instance.power_state === 'running' &&
      instance.booted_ceiling !== undefined && { booted_ceiling: instance.booted_ceiling }),
  },
});

export const DISK_TASKS: TaskHandlers<'disk.export' | 'disk.withdraw' | 'disk.transfer' | 'disk.verify'> = {
  'disk.export': (state, p) => {
    const volumeId = volumeOfDisk(p.disk);
    const key = transportKeyOf(p);
    if (volumeId)
      return { result: exportVolume(state, p.instance_id, volumeId, key), instanceId: p.instance_id };
    const content = contentOf(ownInstance(state, p.instance_id));
    noteOutgoing(state, p.migration_id, p.instance_id);
    const endpoint = sealOffer('sim:', content, key);
    return {
      result: {
        checksum: diskChecksum(content),
        size_mb: ownInstance(state, p.instance_id).disk_mb,
        endpoint,
      },
      instanceId: p.instance_id,
    };
  },
  // The simulated source makes no copies: its offer is in the endpoint, void with the token; the
  // copy it would have left here is the instance again.
  'disk.withdraw': (state, p) => {
    forgetOutgoing(state, p.migration_id);
    return { result: { withdrawn: true }, instanceId: p.instance_id };
  },
  'disk.transfer': async (state, p, ctx) => {
    const incoming = incomingOf(state, p.migration_id);
    const volumeId = volumeOfDisk(p.disk);
    const key = transportKeyOf(p);
    if (volumeId) {
      const { result, changed } = await transferVolume(incoming, volumeId, p.transfer_token, key, ctx);
      return { result, ...(changed && { detail: `volume ${volumeId} received` }), instanceId: p.instance_id };
    }
    if (!incoming.disk) {
      const { endpoint } = await ctx.redeemTransfer(p.transfer_token);
      incoming.disk = openOffer<DiskContent>(endpoint, 'sim:', key);
      return {
        result: { checksum: diskChecksum(incoming.disk), size_mb: incoming.disk_mb },
        detail: 'disk received',
        instanceId: p.instance_id,
      };
    }
    return {
      result: { checksum: diskChecksum(incoming.disk), size_mb: incoming.disk_mb },
      instanceId: p.instance_id,
    };
  },
  'disk.verify': (state, p) => {
    const incoming = incomingOf(state, p.migration_id);
    const volumeId = volumeOfDisk(p.disk);
    if (volumeId) return { result: verifyVolume(incoming, volumeId), instanceId: p.instance_id };
    if (!incoming.disk)
      throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
    return { result: { checksum: diskChecksum(incoming.disk) }, instanceId: p.instance_id };
  },
};

import { existsSync } from 'node:fs';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { transportKeyOf } from '../../transport-key.js';
import { sha256File } from '../disks/disk-files.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { transferVolume, verifyVolume } from './migration-volumes.js';
import { pullDisk, sourceAt } from './transfer-pulls.js';

// The arriving guest's disks: pulled from the source, then checked against what the source has.

export async function transferDisk(
  guests: QemuGuests,
  p: AgentTaskParams<'disk.transfer'>,
  ctx: TaskContext,
) {
  const incoming = guests.incoming(p.migration_id);
  // Kept for the rest of the move: the handoffs, the final sync and a live move's listeners.
  const key = transportKeyOf(p);
  if (incoming.transport_secret !== key) {
    incoming.transport_secret = key;
    guests.save();
  }
  const volumeId = volumeOfDisk(p.disk);
  if (volumeId) return transferVolume(guests, p.migration_id, incoming, volumeId, p.transfer_token, ctx);
  if (!incoming.checksum) {
    if (!incoming.endpoint) {
      // The token is good once: the endpoint is kept at once, so a repeated task needs no second redemption.
      incoming.endpoint = (await ctx.redeemTransfer(p.transfer_token)).endpoint;
      guests.save();
    }
    ctx.progress(10, 'pulling the disk from the source');
    const source = sourceAt(p.migration_id, incoming, incoming.endpoint);
    incoming.checksum = await pullDisk(source, guestFiles(incoming.dir).disk, ctx.signal);
    guests.save();
  }
  return { checksum: incoming.checksum, size_mb: incoming.disk_mb };
}

export async function verifyDisk(guests: QemuGuests, p: AgentTaskParams<'disk.verify'>) {
  const incoming = guests.incoming(p.migration_id);
  const volumeId = volumeOfDisk(p.disk);
  if (volumeId) return verifyVolume(guests, incoming, volumeId);
  const { disk } = guestFiles(incoming.dir);
  if (!incoming.checksum || !existsSync(disk))
    throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
  if (guestAlive(incoming.dir)) return { checksum: incoming.checksum };
  return { checksum: await sha256File(disk) };
}

// The root password's part of a migration (password/password.ts keeps it on one host): what the source
// hands over for the boots the guest has not had yet, and where the target puts it.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { QemuExport, QemuIncoming } from '../guests/state.js';
import {
  dropPendingReset,
  pendingReset,
  receivePendingReset,
  settlePendingReset,
} from '../password/pending-password.js';
import type { PasswordHandoff } from './transfer-bodies.js';

/**
 * What the guest's root password needs besides its disk, for a migration's target (see
 * PasswordHandoffBody): a disk that never booted needs its first password's hash, a guest reset
 * while stopped its waiting reset. Served to the holder of the move's transport key only, like the disk.
 */
export function passwordHandoff(guests: QemuGuests, offered: QemuExport): PasswordHandoff | undefined {
  const instance = guests.state.instances[offered.instance_id];
  const dir = offered.dir ?? instance?.dir;
  if (!dir || !existsSync(dir)) return undefined;
  settlePendingReset(dir);
  const { rootHash } = guestFiles(dir);
  return {
    first_boot_hash: existsSync(rootHash) ? readFileSync(rootHash, 'utf8').trim() : null,
    pending_reset: pendingReset(dir) ?? null,
    password_key: (instance?.dir === dir ? instance.password_key : undefined) ?? null,
  };
}

/** The source's handoff, put where the arriving guest's boots read it. */
export function receivePasswordHandoff(
  guests: QemuGuests,
  incoming: QemuIncoming,
  handoff: PasswordHandoff,
): void {
  const { rootHash } = guestFiles(incoming.dir);
  if (handoff.first_boot_hash) writeFileSync(rootHash, handoff.first_boot_hash, { mode: 0o600 });
  else rmSync(rootHash, { force: true });
  if (handoff.pending_reset) receivePendingReset(incoming.dir, handoff.pending_reset);
  else dropPendingReset(incoming.dir);
  incoming.password_key = handoff.password_key;
  incoming.password_received = true;
  guests.save();
}

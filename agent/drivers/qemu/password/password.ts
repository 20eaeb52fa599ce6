import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { askGuestForTask } from '../guests/guest-channel.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { QemuInstance } from '../guests/state.js';
import { dropPendingReset, keepPendingReset, settlePendingReset } from './pending-password.js';
import { passwordSalt, sha512Crypt } from './sha512-crypt.js';

/**
 * The root password, hashed here (SHA-512 crypt), so the plaintext goes no further than this
 * process. The salt is keyed per guest, so the same password delivered twice leaves the same
 * line and reports no change. A running guest writes it into the /etc/shadow on its disk when
 * the hash reaches it through its channel. A stopped guest's waits in its directory for its next
 * boot (fw_cfg), which applies it once: starting someone's guest to change it, or editing its
 * filesystem from the host, would be worse. The newest reset wins: a waiting one is replaced by
 * the next made while stopped, and dropped by one made over the channel (the boot applied it
 * before the channel opened).
 */
export async function setPassword(
  guests: QemuGuests,
  p: AgentTaskParams<'instance.set_password'>,
  ctx: TaskContext,
) {
  const instance = guests.existing(p.instance_id);
  settlePendingReset(instance.dir);
  const hash = passwordHash(guests, instance, p.root_password);
  if (!guestAlive(instance.dir)) return keepPendingReset(instance.dir, hash);
  const answer = await askGuestForTask(
    instance.dir,
    { verb: 'set-password', user: 'root', argument: hash },
    ctx.signal,
  );
  if (!answer.ok) throw new DriverFailure('GUEST_REFUSED', `the guest said: ${answer.detail}`, false);
  dropPendingReset(instance.dir);
  return { changed: answer.detail === 'changed' };
}

function passwordHash(guests: QemuGuests, instance: QemuInstance, password: string): string {
  if (!instance.password_key) {
    instance.password_key = randomBytes(32).toString('hex');
    guests.save();
  }
  return sha512Crypt(password, passwordSalt(instance.password_key, password));
}

/**
 * The first password of a new disk, hashed, where the guest's first boot reads it (QEMU's
 * fw_cfg): the guest writes it into its /etc/shadow when the disk has none yet, so a later reset
 * is never undone by a reboot. A disk restored from a backup keeps the backup's. Returns the hash,
 * which the seed also carries for images whose cloud-init sets it.
 */
export function writeFirstPassword(guests: QemuGuests, instance: QemuInstance, password: string): string {
  const hash = passwordHash(guests, instance, password);
  writeFileSync(guestFiles(instance.dir).rootHash, hash, { mode: 0o600 });
  return hash;
}

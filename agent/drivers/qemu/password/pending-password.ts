import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { guestAlive, guestFiles } from '../guests/guest-process.js';

/**
 * A root password reset made while the guest was stopped: its hash waits in the guest's
 * directory (`root-reset`, mode 0600, never the password) as `<id> <hash>`, handed to the next
 * boot as a fw_cfg file. The guest writes it into the /etc/shadow on its disk once, keeps the id
 * there, and says `guest: password reset <id> applied` on its console; then the file is dropped.
 */
export interface PendingReset {
  readonly id: string;
  readonly hash: string;
}

const writePrivate = (path: string, content: string) => {
  writeFileSync(`${path}.tmp`, content, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
};

export function pendingReset(dir: string): PendingReset | undefined {
  const path = guestFiles(dir).rootReset;
  if (!existsSync(path)) return undefined;
  const [id, hash] = readFileSync(path, 'utf8').trim().split(' ');
  return id && hash ? { id, hash } : undefined;
}

/**
 * Keeps `hash` for the next boot, replacing any reset still waiting (the newest wins). The same
 * hash again keeps its id: a task delivered twice changes nothing.
 */
export function keepPendingReset(dir: string, hash: string): { changed: boolean } {
  if (pendingReset(dir)?.hash === hash) return { changed: false };
  writePrivate(guestFiles(dir).rootReset, `${randomBytes(16).toString('hex')} ${hash}`);
  return { changed: true };
}

/** Puts a reset that came with the guest from another host where its next boot finds it. */
export function receivePendingReset(dir: string, reset: PendingReset): void {
  writePrivate(guestFiles(dir).rootReset, `${reset.id} ${reset.hash}`);
}

export function dropPendingReset(dir: string): void {
  rmSync(guestFiles(dir).rootReset, { force: true });
}

/**
 * Drops the waiting reset once the guest has said on its console that it applied it; true when
 * nothing waits any more. Synchronous, so that no newer reset can be written between the look
 * and the removal.
 */
export function settlePendingReset(dir: string): boolean {
  const reset = pendingReset(dir);
  if (!reset) return true;
  const { console: consolePath } = guestFiles(dir);
  if (!existsSync(consolePath)) return false;
  if (!readFileSync(consolePath, 'utf8').includes(`guest: password reset ${reset.id} applied`)) return false;
  dropPendingReset(dir);
  return true;
}

/**
 * How long after a boot the agent looks on the console for the guest's word that it applied a
 * reset made while it was stopped; one booting slower is settled by its next task or boot.
 */
const RESET_ACK_WAIT_MS = 180_000;

/**
 * Guests just booted with a waiting reset, looked at every second until they say they applied it
 * (then it is dropped), stop running, or take longer than RESET_ACK_WAIT_MS. Its id stays on the
 * guest's disk, so until then a reboot with the same fw_cfg file changes nothing.
 */
export class PendingResetWatches {
  readonly #timers = new Map<string, NodeJS.Timeout>();

  watch(instanceId: string, dir: string): void {
    if (this.#timers.has(instanceId) || !pendingReset(dir)) return;
    const deadline = Date.now() + RESET_ACK_WAIT_MS;
    const look = () => {
      this.#timers.delete(instanceId);
      if (settlePendingReset(dir) || !guestAlive(dir) || Date.now() > deadline) return;
      const timer = setTimeout(look, 1000);
      timer.unref();
      this.#timers.set(instanceId, timer);
    };
    look();
  }

  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}

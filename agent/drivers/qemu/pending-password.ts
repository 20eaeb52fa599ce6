import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { guestFiles } from './guest-process.js';

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

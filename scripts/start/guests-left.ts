import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { guestPid } from '../../agent/drivers/qemu/guests/guest-process.js';

/** A QEMU guest of the demo's agents, by its folder (its instance, or the migration it arrived by). */
export interface GuestLeft {
  readonly folder: string;
  readonly pid: number;
}

/**
 * The demo's QEMU guests still running in the data folder's agents (`agent*` / `guests` and
 * `incoming`): they outlive npm start by design, and the next start takes them back.
 */
export function guestsLeft(data: string): GuestLeft[] {
  const found: GuestLeft[] = [];
  const agents = existsSync(data) ? readdirSync(data).filter((name) => /^agent(-\d+)?$/.test(name)) : [];
  for (const agent of agents)
    for (const kind of ['guests', 'incoming']) {
      const parent = join(data, agent, kind);
      if (!existsSync(parent)) continue;
      for (const name of readdirSync(parent)) {
        const pid = guestPid(join(parent, name));
        if (pid !== undefined) found.push({ folder: join(parent, name), pid });
      }
    }
  return found;
}

/** What the stop says of them: which run on, and the command that ends exactly them. */
export function guestsLeftNotice(guests: readonly GuestLeft[]): string | undefined {
  if (guests.length === 0) return undefined;
  return [
    `${guests.length === 1 ? 'One QEMU guest runs' : `${guests.length} QEMU guests run`} on (by design: the next npm start takes them back):`,
    ...guests.map((g) => `  ${g.folder} (pid ${g.pid})`),
    `To end exactly ${guests.length === 1 ? 'it' : 'them'}: kill ${guests.map((g) => g.pid).join(' ')}`,
  ].join('\n');
}

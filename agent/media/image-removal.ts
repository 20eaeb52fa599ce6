import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { DriverFailure } from '../drivers/driver.js';
import { removedMarkOf, storedImageDir } from './image-fetch.js';

/**
 * A deleted version's copy gone from the store: its directory, and whatever a fetch of it left in
 * `.incoming/` (a fetch cut off, or one still running, whose rename then fails). `guestsUsing` are
 * the guests of this host made from it: while there is one the copy stays (`IMAGE_IN_USE`), since
 * the guest's boot reads its image from the store. A copy that is not there is done, `removed` false.
 * The version is marked removed in the store, so no fetch of it puts it back (image-fetch.ts).
 */
export function removeStoredImage(
  store: string,
  p: AgentTaskParams<'image.delete'>,
  guestsUsing: readonly string[],
): { removed: boolean } {
  if (guestsUsing.length > 0)
    throw new DriverFailure(
      'IMAGE_IN_USE',
      `the image is used by ${guestsUsing.length} guest(s) on this hypervisor (${guestsUsing.slice(0, 5).join(', ')})`,
      false,
    );
  // Marked first: a fetch of it finishing meanwhile, or retried later, puts nothing back.
  const mark = removedMarkOf(store, p.image);
  mkdirSync(join(store, '.removed'), { recursive: true });
  writeFileSync(mark, `${new Date().toISOString()}\n`);
  const target = storedImageDir(store, p.image);
  const incoming = join(store, '.incoming');
  const partials = existsSync(incoming)
    ? readdirSync(incoming).filter((name) => name.startsWith(`${p.image}-`))
    : [];
  const removed = existsSync(target) || partials.length > 0;
  for (const name of partials) rmSync(join(incoming, name), { recursive: true, force: true });
  rmSync(target, { recursive: true, force: true });
  return { removed };
}

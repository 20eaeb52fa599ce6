import { join } from 'node:path';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { fetchIso } from '../../media/iso-fetch.js';
import type { QemuGuests } from './guests.js';

/** Where an instance's ISO is kept: in its guest's directory, so it goes when the guest does. */
export const isoFile = (guestDir: string, isoId: string) => join(guestDir, 'isos', `${isoId}.iso`);

/** Fetches the ISO into the guest's library (the agent's fetcher, with its address checks); once. */
export async function fetchGuestIso(
  guests: QemuGuests,
  p: AgentTaskParams<'iso.fetch'>,
  signal: AbortSignal,
) {
  const instance = guests.existing(p.instance_id);
  const held = instance.isos?.[p.iso_id];
  if (held) return held;
  const fetched = await fetchIso(p, isoFile(instance.dir, p.iso_id), signal);
  instance.isos = { ...instance.isos, [p.iso_id]: fetched };
  guests.save();
  return fetched;
}

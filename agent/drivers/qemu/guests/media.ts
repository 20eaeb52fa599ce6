import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { reportedRoom } from '../../../../domain/instances/hot-resize.js';
import { fetchIso, removeIsoFile } from '../../../media/iso-fetch.js';
import { DriverFailure } from '../../driver.js';
import { guestAlive, guestFiles, killGuest } from './guest-process.js';
import type { QemuGuests } from './guests.js';
import { Qmp } from './qmp.js';
import type { QemuInstance } from './state.js';

// The instance's ISO library on this host, in its guest's directory (so it goes with the guest),
// and its CD-ROM drive (guest-launch.ts): fetched, mounted, booted from.

/** Fetches the ISO into the guest's library (the agent's fetcher, with its address checks); once. */
export async function fetchGuestIso(
  guests: QemuGuests,
  p: AgentTaskParams<'iso.fetch'>,
  signal: AbortSignal,
) {
  const instance = guests.existing(p.instance_id);
  const held = instance.isos?.[p.iso_id];
  if (held) return held;
  const fetched = await fetchIso(p, guestFiles(instance.dir).iso(p.iso_id), signal);
  instance.isos = { ...instance.isos, [p.iso_id]: fetched };
  guests.save();
  return fetched;
}

/**
 * The ISO's file and its entry in the guest's library are gone; gone already (or the guest with its
 * directory, when it left this host) is done, `deleted` false. The ISO in the drive is refused: a
 * running guest has the file open, and a stopped one boots with it.
 */
export function deleteGuestIso(guests: QemuGuests, p: AgentTaskParams<'iso.delete'>) {
  const instance = guests.state.instances[p.instance_id];
  if (!instance) return { deleted: false };
  if ((instance.mounted_iso ?? null) === p.iso_id)
    throw new DriverFailure('ISO_MOUNTED', 'the ISO is in the guest’s CD-ROM drive; eject it first', false);
  const file = guestFiles(instance.dir).iso(p.iso_id);
  const listed = instance.isos?.[p.iso_id] !== undefined;
  if (!removeIsoFile(file) && !listed) return { deleted: false };
  if (instance.isos) {
    const { [p.iso_id]: _gone, ...kept } = instance.isos;
    instance.isos = kept;
  }
  guests.save();
  return { deleted: true };
}

function fetched(instance: QemuInstance, isoId: string): void {
  if (!instance.isos?.[isoId])
    throw new DriverFailure(
      'ISO_NOT_FOUND',
      'the instance’s library on this hypervisor has no such ISO',
      false,
    );
}

/**
 * The drive holds the ISO (or is empty): recorded for the guest's boots, and under a running guest
 * changed over QMP (the medium swapped, or ejected), which the guest sees as a media change.
 */
export async function mountGuestIso(guests: QemuGuests, p: AgentTaskParams<'iso.mount'>) {
  const instance = guests.existing(p.instance_id);
  if (p.iso_id !== null) fetched(instance, p.iso_id);
  instance.mounted_iso = p.iso_id;
  guests.save();
  if (guestAlive(instance.dir))
    await Qmp.with(guestFiles(instance.dir).qmp, (qmp) =>
      p.iso_id === null
        ? qmp.execute('eject', { id: 'cdrom', force: true })
        : qmp.execute('blockdev-change-medium', {
            id: 'cdrom',
            filename: guestFiles(instance.dir).iso(p.iso_id),
            format: 'raw',
            'read-only-mode': 'read-only',
          }),
    );
  return { iso_id: p.iso_id };
}

/** The guest ended at once and started from its drive, holding the ISO; its next boot is from its disk. */
export async function bootGuestIso(guests: QemuGuests, p: AgentTaskParams<'iso.boot'>) {
  const instance = guests.existing(p.instance_id);
  fetched(instance, p.iso_id);
  instance.mounted_iso = p.iso_id;
  instance.boot_from_cdrom = true;
  guests.save();
  await killGuest(instance.dir);
  await guests.boot(p.instance_id, instance);
  const power_state = await guests.powerState(instance.dir);
  return { power_state, ...reportedRoom(instance, power_state) };
}

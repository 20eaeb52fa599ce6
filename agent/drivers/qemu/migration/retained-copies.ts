import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { volumeFile } from '../disks/volume-slots.js';
import type { QemuGuests } from '../guests/guests.js';
import type { QemuExport, QemuIncoming } from '../guests/state.js';

// The copy a committed migration retains on its source, kept apart from the instance when the
// instance comes back to this host before the copy's cleanup (docs/migration.md, "A move back").
// The arrival has a directory of its own (incoming/<migration>); what the two would share is the
// instance's entry here and its volumes' files, named by volume id: the arrival keeps the old
// copy's apart under that copy's migration, so that the copy's cleanup and the arrival's undo each
// touch only their own.

/** The migration whose retained copy the instance's entry here is, with its offer. */
function retainedHere(guests: QemuGuests, instanceId: string): [string, QemuExport] | undefined {
  const dir = guests.state.instances[instanceId]?.dir;
  if (!dir) return undefined;
  return Object.entries(guests.state.exports)
    .filter(([, offered]) => offered.instance_id === instanceId && offered.dir === dir)
    .at(-1);
}

/**
 * At an arrival's preparation: the retained copy of the same instance, if this host keeps one,
 * is noted, and the files of the volumes both have are moved aside under that copy's migration
 * before the arrival pulls its own to the usual place.
 */
export function keepRetainedApart(guests: QemuGuests, incoming: QemuIncoming): void {
  const found = retainedHere(guests, incoming.instance_id);
  if (!found) return;
  const [migrationId, offered] = found;
  incoming.set_aside_from = migrationId;
  const stateDir = guests.config.AGENT_STATE_DIR;
  for (const volumeId of Object.keys(incoming.volumes ?? {})) {
    const volume = guests.state.volumes?.[volumeId];
    if (volume?.instance_id !== incoming.instance_id) continue;
    const path = join(stateDir, 'exports', `${migrationId}-kept-${volumeId}.qcow2`);
    mkdirSync(join(stateDir, 'exports'), { recursive: true });
    if (existsSync(volumeFile(stateDir, volumeId))) renameSync(volumeFile(stateDir, volumeId), path);
    offered.kept_volumes = { ...offered.kept_volumes, [volumeId]: { path, volume } };
    delete guests.state.volumes![volumeId];
  }
}

/** At the arrival's start: the retained copy's entry, about to be the arrival's, is kept with its offer. */
export function keepRetainedEntry(guests: QemuGuests, incoming: QemuIncoming): void {
  const offered = incoming.set_aside_from ? guests.state.exports[incoming.set_aside_from] : undefined;
  const entry = guests.state.instances[incoming.instance_id];
  if (offered && entry && entry.dir === offered.dir && entry.dir !== incoming.dir) offered.instance = entry;
}

/** An arrival discarded: what it kept apart is where it was, unless the copy's cleanup took it meanwhile. */
export function restoreRetained(guests: QemuGuests, incoming: QemuIncoming): void {
  const offered = incoming.set_aside_from ? guests.state.exports[incoming.set_aside_from] : undefined;
  if (!offered) return;
  const id = incoming.instance_id;
  if (offered.instance && !guests.state.instances[id]) guests.state.instances[id] = offered.instance;
  delete offered.instance;
  const stateDir = guests.config.AGENT_STATE_DIR;
  for (const [volumeId, kept] of Object.entries(offered.kept_volumes ?? {})) {
    if (guests.state.volumes?.[volumeId]) continue;
    if (existsSync(kept.path)) renameSync(kept.path, volumeFile(stateDir, volumeId));
    guests.state.volumes = { ...guests.state.volumes, [volumeId]: kept.volume };
  }
  delete offered.kept_volumes;
}

/** Whether an arrival of the instance is under way here: its guest, not yet this host's, uses the instance's taps. */
export const arrivalUnderWay = (guests: QemuGuests, instanceId: string) =>
  Object.values(guests.state.incoming).some((i) => i.instance_id === instanceId && !i.started);

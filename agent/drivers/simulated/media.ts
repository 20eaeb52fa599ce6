import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { reportedRoom, roomOfBoot } from '../../../domain/instances/hot-resize.js';
import { fetchIso, removeIsoFile } from '../../media/iso-fetch.js';
import { DriverFailure } from '../driver.js';
import type { SimulatedHost } from './host.js';

/**
 * Fetches the ISO for real (the agent's own fetcher, with its address checks) into the simulated
 * hypervisor's folder, and records it with the instance; one it has already is not fetched again.
 */
export async function fetchInstanceIso(
  host: SimulatedHost,
  p: AgentTaskParams<'iso.fetch'>,
  signal: AbortSignal,
) {
  const instance = host.existing(p.instance_id);
  const held = instance.isos?.[p.iso_id];
  if (held) return held;
  const fetched = await fetchIso(p, isoFile(host, p.instance_id, p.iso_id), signal);
  instance.isos = { ...instance.isos, [p.iso_id]: fetched };
  host.record('iso.fetch', p.instance_id, `${p.iso_id}: ${fetched.size_mb} MB`);
  return fetched;
}

const isoFile = (host: SimulatedHost, instanceId: string, isoId: string) =>
  join(host.config.AGENT_STATE_DIR, 'isos', instanceId, `${isoId}.iso`);

/**
 * The ISO's file and its entry in the instance's library are gone; gone already (or the instance
 * with them) is done, and `deleted` false. The ISO in the drive is refused: the guest may read it.
 */
export function deleteInstanceIso(host: SimulatedHost, p: AgentTaskParams<'iso.delete'>) {
  const instance = host.state.instances[p.instance_id];
  if (instance && (instance.mounted_iso ?? null) === p.iso_id)
    throw new DriverFailure(
      'ISO_MOUNTED',
      'the ISO is in the instance’s CD-ROM drive; eject it first',
      false,
    );
  const file = isoFile(host, p.instance_id, p.iso_id);
  const listed = instance?.isos?.[p.iso_id] !== undefined;
  if (!removeIsoFile(file) && !listed) return { deleted: false };
  if (instance?.isos) {
    const { [p.iso_id]: _gone, ...kept } = instance.isos;
    instance.isos = kept;
  }
  host.record('iso.delete', p.instance_id, p.iso_id);
  return { deleted: true };
}

/** A deleted instance's ISOs go with it. */
export function dropIsosOf(host: SimulatedHost, instanceId: string): void {
  rmSync(join(host.config.AGENT_STATE_DIR, 'isos', instanceId), { recursive: true, force: true });
}

function fetchedIso(host: SimulatedHost, instanceId: string, isoId: string) {
  const instance = host.existing(instanceId);
  if (!instance.isos?.[isoId])
    throw new DriverFailure(
      'ISO_NOT_FOUND',
      'the instance’s library on this hypervisor has no such ISO',
      false,
    );
  return instance;
}

/** The instance's drive holds the ISO (or none); a drive that holds it already is left as it is. */
export function mountIso(host: SimulatedHost, p: AgentTaskParams<'iso.mount'>) {
  const instance =
    p.iso_id === null ? host.existing(p.instance_id) : fetchedIso(host, p.instance_id, p.iso_id);
  if ((instance.mounted_iso ?? null) === p.iso_id) return { iso_id: p.iso_id };
  instance.mounted_iso = p.iso_id;
  host.record('iso.mount', p.instance_id, p.iso_id ?? 'ejected');
  return { iso_id: p.iso_id };
}

/** The guest (re)started from the ISO: it holds it in its drive and runs. */
export function bootIso(host: SimulatedHost, p: AgentTaskParams<'iso.boot'>) {
  const instance = fetchedIso(host, p.instance_id, p.iso_id);
  instance.mounted_iso = p.iso_id;
  instance.power_state = 'running';
  instance.booted_ceiling = roomOfBoot(instance.ceiling, instance.memory_mb, 'cdrom') ?? null;
  host.record('iso.boot', p.instance_id, p.iso_id);
  return { power_state: instance.power_state, ...reportedRoom(instance, instance.power_state) };
}

import type { IncomingInstance, MigrationState, SimulatedVolume } from './state.js';

// The copy a committed migration retains on its source, kept apart from the instance when the
// instance comes back to that host before the copy's cleanup (docs/migration.md, "A move back"):
// the arrival sets the old copy aside, so neither the old copy's cleanup nor the arrival's undo
// touches the other's guest, network or volumes.

/** At the export of a migration's root disk: the copy this host will keep once the migration commits. */
export function noteOutgoing(state: MigrationState, migrationId: string, instanceId: string): void {
  state.outgoing ??= {};
  state.outgoing[migrationId] ??= { instance_id: instanceId };
}

/** A migration that rolled back leaves no copy behind: the instance here is the instance again. */
export function forgetOutgoing(state: MigrationState, migrationId: string): void {
  const outgoing = state.outgoing?.[migrationId];
  if (outgoing && !outgoing.set_aside) delete state.outgoing![migrationId];
}

const volumesOf = (state: MigrationState, instanceId: string) =>
  Object.entries(state.volumes ?? {}).filter(([, v]) => v.instance_id === instanceId);

/**
 * An arrival about to start here where an earlier migration's copy of the same instance is still
 * kept: that copy (the instance's entry and its volumes) goes aside under its own migration, the
 * latest that left the instance here. Older records of the instance not set aside name no copy
 * any more (a run that rolled back before offers were withdrawn): they go, so that from now on a
 * record not set aside is always a copy made after this arrival.
 */
export function setAsideRetained(state: MigrationState, incoming: IncomingInstance): void {
  const id = incoming.instance_id;
  const kept = state.instances[id];
  const open = Object.entries(state.outgoing ?? {})
    .filter(([, o]) => o.instance_id === id && !o.set_aside)
    .map(([migrationId]) => migrationId);
  const from = kept ? open.pop() : undefined;
  for (const stale of open) delete state.outgoing![stale];
  if (!kept || !from) return;
  const volumes: Record<string, SimulatedVolume> = {};
  for (const [volumeId, volume] of volumesOf(state, id)) {
    volumes[volumeId] = volume;
    delete state.volumes![volumeId];
  }
  state.outgoing![from]!.set_aside = { instance: kept, volumes };
  delete state.instances[id];
  incoming.set_aside_from = from;
}

/** An arrival discarded after it started: the copy it set aside is where it was again. */
export function restoreSetAside(state: MigrationState, incoming: IncomingInstance): void {
  const from = incoming.set_aside_from;
  const aside = from ? state.outgoing?.[from]?.set_aside : undefined;
  if (!from || !aside) return;
  state.instances[incoming.instance_id] = aside.instance;
  state.volumes ??= {};
  Object.assign(state.volumes, aside.volumes);
  delete state.outgoing![from]!.set_aside;
  delete incoming.set_aside_from;
}

/**
 * The cleanup of a committed migration's source: its copy, wherever it is kept, and only its copy.
 * A copy set aside goes alone; a copy still in place goes with its volumes. Without a record (a
 * repeat, or a copy made before records were kept) the instance's entry goes only if no arrival
 * of the instance ever started here, as that entry may then be the arrived instance.
 */
export function removeRetained(state: MigrationState, migrationId: string, instanceId: string): boolean {
  const outgoing = state.outgoing?.[migrationId];
  if (outgoing) delete state.outgoing![migrationId];
  if (outgoing?.set_aside) return true;
  const arrived = Object.values(state.incoming ?? {}).some((i) => i.instance_id === instanceId && i.started);
  if (!state.instances[instanceId] || (!outgoing && arrived)) return false;
  delete state.instances[instanceId];
  for (const [volumeId] of volumesOf(state, instanceId)) delete state.volumes![volumeId];
  return true;
}

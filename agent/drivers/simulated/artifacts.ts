import type { AgentTaskParams, AgentTaskType } from '../../../domain/agent-tasks.js';
import { DriverFailure } from '../driver.js';
import { type SimulatedHost, sha256 } from './host.js';
import type { DiskState, SimulatedArtifact, SimulatedInstance } from './state.js';

// Backups (in the location's store), snapshots (with the instance) and restores of a simulated
// disk, whose content is a text descriptor and whose checksum is that text's SHA-256.

/** The instance's disk state, filled in where it is missing (see SimulatedInstance.disk). */
export function diskOf(instance: SimulatedInstance): DiskState {
  instance.disk ??= `image ${instance.image}\n`;
  instance.boots ??= 0;
  instance.snapshots ??= {};
  instance.restores ??= {};
  return instance as DiskState;
}

/** What a simulated disk occupies: an eighth of its size, a stand-in for the blocks in use. */
const sizeOf = (instance: SimulatedInstance) => Math.max(1, Math.ceil(instance.disk_mb / 8));

const artifactOf = (instanceId: string, instance: DiskState): SimulatedArtifact => ({
  instance_id: instanceId,
  content: instance.disk,
  written_checksum: sha256(instance.disk),
  size_mb: sizeOf(instance),
  created_at: new Date().toISOString(),
});

const backupNotFound = () => new DriverFailure('BACKUP_NOT_FOUND', 'the backup is not in the store', false);

/** A backup's content for a new instance's disk, refused if it is gone or no longer matches. */
export function backupContent(host: SimulatedHost, source: { backup_id: string; checksum: string }): string {
  const backup = host.store.read().backups[source.backup_id];
  if (!backup) throw backupNotFound();
  if (sha256(backup.content) !== source.checksum)
    throw new DriverFailure('BACKUP_CORRUPT', 'the backup does not match its checksum', false);
  return backup.content;
}

export function createBackup(host: SimulatedHost, p: AgentTaskParams<'backup.create'>) {
  const store = host.store.read();
  const existing = store.backups[p.backup_id];
  if (existing) return { size_mb: existing.size_mb, checksum: existing.written_checksum };
  const backup = artifactOf(p.instance_id, diskOf(host.existing(p.instance_id)));
  store.backups[p.backup_id] = backup;
  host.store.write(store);
  host.record('backup.create', p.instance_id, p.backup_id);
  return { size_mb: backup.size_mb, checksum: backup.written_checksum };
}

export function verifyBackup(host: SimulatedHost, p: AgentTaskParams<'backup.verify'>) {
  const backup = host.store.read().backups[p.backup_id];
  if (!backup) throw backupNotFound();
  return { size_mb: backup.size_mb, checksum: sha256(backup.content) };
}

export function stageBackup(host: SimulatedHost, p: AgentTaskParams<'backup.restore'>) {
  const instance = diskOf(host.existing(p.instance_id));
  const backup = host.store.read().backups[p.backup_id];
  if (!instance.restores[p.restore_id] && !backup) throw backupNotFound();
  return stage(host, p.instance_id, instance, p.restore_id, backup?.content, 'backup.restore');
}

export function deleteBackup(host: SimulatedHost, p: AgentTaskParams<'backup.delete'>) {
  const store = host.store.read();
  if (!store.backups[p.backup_id]) return { deleted: false };
  delete store.backups[p.backup_id];
  host.store.write(store);
  host.record('backup.delete', p.instance_id, p.backup_id);
  return { deleted: true };
}

export function createSnapshot(host: SimulatedHost, p: AgentTaskParams<'snapshot.create'>) {
  const instance = diskOf(host.existing(p.instance_id));
  const existing = instance.snapshots[p.snapshot_id];
  if (existing) return { size_mb: existing.size_mb, checksum: existing.written_checksum };
  const snapshot = artifactOf(p.instance_id, instance);
  instance.snapshots[p.snapshot_id] = snapshot;
  host.record('snapshot.create', p.instance_id, p.snapshot_id);
  return { size_mb: snapshot.size_mb, checksum: snapshot.written_checksum };
}

export function stageSnapshot(host: SimulatedHost, p: AgentTaskParams<'snapshot.restore'>) {
  const instance = diskOf(host.existing(p.instance_id));
  const snapshot = instance.snapshots[p.snapshot_id];
  if (!instance.restores[p.restore_id] && !snapshot)
    throw new DriverFailure('SNAPSHOT_NOT_FOUND', 'no such snapshot of the instance', false);
  return stage(host, p.instance_id, instance, p.restore_id, snapshot?.content, 'snapshot.restore');
}

export function deleteSnapshot(host: SimulatedHost, p: AgentTaskParams<'snapshot.delete'>) {
  const instance = host.state.instances[p.instance_id];
  const snapshots = instance ? diskOf(instance).snapshots : {};
  if (!snapshots[p.snapshot_id]) return { deleted: false };
  delete snapshots[p.snapshot_id];
  host.record('snapshot.delete', p.instance_id, p.snapshot_id);
  return { deleted: true };
}

/** Writes `content` beside the current disk under `restoreId`, once: a repeat reports the same disk. */
function stage(
  host: SimulatedHost,
  instanceId: string,
  instance: DiskState,
  restoreId: string,
  content: string | undefined,
  type: AgentTaskType,
) {
  if (!instance.restores[restoreId] && content !== undefined) {
    instance.restores[restoreId] = { staged: content, previous: null };
    host.record(type, instanceId, restoreId);
  }
  const staged = instance.restores[restoreId]!.staged;
  return { size_mb: sizeOf(instance), checksum: sha256(staged) };
}

export function swapDisk(host: SimulatedHost, p: AgentTaskParams<'disk.swap'>) {
  const instance = diskOf(host.existing(p.instance_id));
  const restore = instance.restores[p.restore_id];
  if (!restore)
    throw new DriverFailure('RESTORE_NOT_STAGED', 'no restored disk was written for this restore', false);
  if (restore.previous === null) {
    // The guest is stopped for the swap and started again on the restored disk if it was running.
    restore.previous = instance.disk;
    instance.disk = restore.staged;
    host.record('disk.swap', p.instance_id, p.restore_id);
  }
  return { power_state: instance.power_state, checksum: sha256(instance.disk) };
}

export function revertDisk(host: SimulatedHost, p: AgentTaskParams<'disk.revert'>) {
  const found = host.state.instances[p.instance_id];
  const instance = found ? diskOf(found) : undefined;
  const restore = instance?.restores[p.restore_id];
  if (!instance || !restore) return { reverted: false };
  if (restore.previous !== null) instance.disk = restore.previous;
  delete instance.restores[p.restore_id];
  host.record('disk.revert', p.instance_id, p.restore_id);
  return { reverted: restore.previous !== null };
}

export function releaseDisk(host: SimulatedHost, p: AgentTaskParams<'disk.release'>) {
  const found = host.state.instances[p.instance_id];
  const restores = found ? diskOf(found).restores : {};
  if (!restores[p.restore_id]) return { released: false };
  delete restores[p.restore_id];
  host.record('disk.release', p.instance_id, p.restore_id);
  return { released: true };
}

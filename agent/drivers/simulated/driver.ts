import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { AGENT_TASKS, type AgentTaskParams, type AgentTaskType } from '../../../domain/agent-tasks.js';
import { fitsIn, freeCapacity } from '../../../domain/capacity.js';
import type { AgentConfig, FaultMode } from '../../config.js';
import { sleep } from '../../panel-client.js';
import { StateFile } from '../../state-file.js';
import {
  type Capacity,
  DriverFailure,
  type HypervisorDriver,
  type InstanceSample,
  type TaskContext,
} from '../driver.js';
import { applyMigrationTask, isMigrationTask, type MigrationTaskType } from './migration.js';
import {
  type ArmedFault,
  type DiskState,
  FaultsFile,
  type FaultsFileEntry,
  type SimulatedArtifact,
  type SimulatedBackupStore,
  type SimulatedInstance,
  type SimulatedState,
  simulatedBackupStorePath,
  simulatedFaultsPath,
  simulatedStatePath,
} from './state.js';

/**
 * A hypervisor simulated in a local file: instances, their disks, power and addresses. It takes
 * per-task-type latency and injects the configured faults. It is the one fake in the system,
 * standing where a libvirt driver would.
 */
export class SimulatedDriver implements HypervisorDriver {
  readonly #file: StateFile<SimulatedState>;
  #state: SimulatedState;
  /** Read afresh for every task: other agents of the location write it too. */
  readonly #store: StateFile<SimulatedBackupStore>;

  constructor(
    private readonly config: Pick<
      AgentConfig,
      'AGENT_STATE_DIR' | 'AGENT_CAPACITY' | 'AGENT_SIM_LATENCY_MS' | 'AGENT_SIM_FAULTS'
    > &
      Partial<Pick<AgentConfig, 'AGENT_SIM_BACKUP_DIR'>>,
  ) {
    this.#store = new StateFile(
      simulatedBackupStorePath(config.AGENT_SIM_BACKUP_DIR ?? config.AGENT_STATE_DIR),
      () => ({ backups: {} }),
    );
    this.#file = new StateFile(simulatedStatePath(config.AGENT_STATE_DIR), () => ({
      instances: {},
      applied: [],
      faults_fired: {},
      armed_faults: [],
    }));
    this.#state = this.#file.read();
    // State files written before faults could be armed at run time have no list.
    this.#state.armed_faults ??= [];
  }

  /** The simulated hypervisor as it stands: instances, applied changes, faults. */
  snapshot(): SimulatedState {
    return structuredClone(this.#state);
  }

  /** The location's backup store as it stands. */
  backupStore(): SimulatedBackupStore {
    return this.#store.read();
  }

  /** Arms a fault for the coming calls of `type` (see ArmedFault). */
  armFault(type: AgentTaskType, fault: ArmedFault): void {
    this.#arm(FaultsFile.element.parse({ id: randomUUID(), type, ...fault }));
  }

  async execute(type: AgentTaskType, rawParams: unknown, ctx: TaskContext): Promise<Record<string, unknown>> {
    const parsed = AGENT_TASKS[type].params.safeParse(rawParams);
    if (!parsed.success) throw new DriverFailure('INVALID_PARAMS', parsed.error.message, false);
    this.#armFromFile();
    const fault = this.#takeFault(type);
    if (fault === 'crash-before') this.#crash();
    if (fault === 'fail') throw new DriverFailure('SIMULATED_FAILURE', `simulated failure of ${type}`, true);
    if (fault === 'fail-permanently')
      throw new DriverFailure('SIMULATED_FAILURE', `simulated failure of ${type}`, false);

    await this.#work(type, ctx, fault === 'hang');
    const artifact = fault === 'corrupt' ? artifactNamedBy(type, parsed.data) : undefined;
    if (artifact && !artifact.written) this.#corrupt(artifact);
    const result = isMigrationTask(type)
      ? await this.#migrate(type, parsed.data, ctx)
      : this.#apply(type as Exclude<AgentTaskType, MigrationTaskType>, parsed.data);
    if (artifact?.written) this.#corrupt(artifact);
    if (fault === 'crash-after') this.#crash();
    return result;
  }

  /** The host's size less its instances and the guests arriving by migration (domain/capacity.ts). */
  freeCapacity(): Capacity {
    const arriving = Object.values(this.#state.incoming ?? {}).filter((i) => !i.started);
    return freeCapacity(this.config.AGENT_CAPACITY, [...Object.values(this.#state.instances), ...arriving]);
  }

  sample(now: Date): InstanceSample[] {
    return Object.entries(this.#state.instances)
      .filter(([, i]) => i.power_state === 'running')
      .map(([id, i]) => ({
        instance_uuid: id,
        sampled_at: now.toISOString(),
        cpu_percent: Math.round(Math.random() * 100 * i.cpu_cores) / 10,
        memory_used_mb: Math.round(i.memory_mb * (0.3 + Math.random() * 0.4)),
        disk_read_bytes: Math.floor(Math.random() * 5e6),
        disk_write_bytes: Math.floor(Math.random() * 5e6),
        net_rx_bytes: Math.floor(Math.random() * 1e7),
        net_tx_bytes: Math.floor(Math.random() * 1e7),
      }));
  }

  /** The latency of the operation, with progress along the way; a hang lasts until aborted. */
  async #work(type: AgentTaskType, ctx: TaskContext, hang: boolean): Promise<void> {
    const latency = this.config.AGENT_SIM_LATENCY_MS[type] ?? this.config.AGENT_SIM_LATENCY_MS.default ?? 0;
    const steps = latency >= 1000 ? 4 : 1;
    for (let step = 1; step <= steps && latency > 0; step++) {
      await sleep(latency / steps, ctx.signal);
      if (ctx.signal.aborted) break;
      if (step < steps) ctx.progress(Math.round((step / steps) * 100));
    }
    while (hang && !ctx.signal.aborted) await sleep(60_000, ctx.signal);
    if (ctx.signal.aborted) throw new DriverFailure('ABORTED', `${type} aborted`, true);
  }

  async #migrate(
    type: MigrationTaskType,
    params: unknown,
    ctx: TaskContext,
  ): Promise<Record<string, unknown>> {
    const applied = await applyMigrationTask(this.#state, type, params, ctx, (need) =>
      fitsIn(this.freeCapacity(), need),
    );
    if (applied.detail) this.#record(type, applied.instanceId, applied.detail);
    else this.#file.write(this.#state);
    return applied.result;
  }

  #apply(type: Exclude<AgentTaskType, MigrationTaskType>, params: unknown): Record<string, unknown> {
    switch (type) {
      case 'instance.create':
        return this.#create(params as AgentTaskParams<'instance.create'>);
      case 'instance.power':
        return this.#power(params as AgentTaskParams<'instance.power'>);
      case 'instance.delete':
        return this.#delete(params as AgentTaskParams<'instance.delete'>);
      case 'instance.rebuild':
        return this.#rebuild(params as AgentTaskParams<'instance.rebuild'>);
      case 'instance.set_password':
        return this.#setPassword(params as AgentTaskParams<'instance.set_password'>);
      case 'backup.create':
        return this.#createBackup(params as AgentTaskParams<'backup.create'>);
      case 'backup.verify':
        return this.#verifyBackup(params as AgentTaskParams<'backup.verify'>);
      case 'backup.restore':
        return this.#stageBackup(params as AgentTaskParams<'backup.restore'>);
      case 'backup.delete':
        return this.#deleteBackup(params as AgentTaskParams<'backup.delete'>);
      case 'snapshot.create':
        return this.#createSnapshot(params as AgentTaskParams<'snapshot.create'>);
      case 'snapshot.restore':
        return this.#stageSnapshot(params as AgentTaskParams<'snapshot.restore'>);
      case 'snapshot.delete':
        return this.#deleteSnapshot(params as AgentTaskParams<'snapshot.delete'>);
      case 'disk.swap':
        return this.#swapDisk(params as AgentTaskParams<'disk.swap'>);
      case 'disk.revert':
        return this.#revertDisk(params as AgentTaskParams<'disk.revert'>);
      case 'disk.release':
        return this.#releaseDisk(params as AgentTaskParams<'disk.release'>);
      case 'hypervisor.probe':
        return { instances: Object.keys(this.#state.instances).length };
    }
  }

  #create(p: AgentTaskParams<'instance.create'>) {
    const existing = this.#state.instances[p.instance_id];
    if (existing) return { power_state: existing.power_state };
    if (!fitsIn(this.freeCapacity(), p)) {
      throw new DriverFailure(
        'INSUFFICIENT_CAPACITY',
        'the hypervisor lacks the capacity for this instance',
        false,
      );
    }
    const disk = p.from_backup ? this.#backupContent(p.from_backup) : `image ${p.image}\n`;
    const power_state = p.start ? 'running' : 'stopped';
    this.#state.instances[p.instance_id] = {
      hostname: p.hostname,
      cpu_cores: p.cpu_cores,
      memory_mb: p.memory_mb,
      disk_mb: p.disk_mb,
      image: p.image,
      boot_order: p.boot_order,
      ipv4: p.ipv4,
      ipv6: p.ipv6,
      power_state,
      created_at: new Date().toISOString(),
      timezone: p.timezone,
      root_password_sha256: sha256(p.root_password),
      ssh_keys: p.ssh_keys,
      disk_generation: 1,
      last_rebuild_id: null,
      disk,
      boots: 0,
      snapshots: {},
      restores: {},
    };
    this.#record(
      'instance.create',
      p.instance_id,
      p.from_backup ? `${power_state} from backup ${p.from_backup.backup_id}` : power_state,
    );
    return { power_state };
  }

  #rebuild(p: AgentTaskParams<'instance.rebuild'>) {
    const instance = this.#existing(p.instance_id);
    if (instance.last_rebuild_id !== p.rebuild_id) {
      Object.assign(instance, {
        image: p.image,
        hostname: p.hostname,
        timezone: p.timezone,
        root_password_sha256: sha256(p.root_password),
        ssh_keys: p.ssh_keys,
        disk_generation: instance.disk_generation + 1,
        last_rebuild_id: p.rebuild_id,
        power_state: p.start ? 'running' : 'stopped',
        disk: `image ${p.image} (rebuild ${p.rebuild_id})\n`,
      });
      this.#record('instance.rebuild', p.instance_id, p.image);
    }
    return { power_state: instance.power_state };
  }

  #setPassword(p: AgentTaskParams<'instance.set_password'>) {
    const instance = this.#existing(p.instance_id);
    const hash = sha256(p.root_password);
    if (instance.root_password_sha256 === hash) return { changed: false };
    instance.root_password_sha256 = hash;
    this.#record('instance.set_password', p.instance_id, 'password set');
    return { changed: true };
  }

  #existing(instanceId: string): SimulatedInstance {
    const instance = this.#state.instances[instanceId];
    if (!instance)
      throw new DriverFailure('INSTANCE_NOT_FOUND', 'no such instance on this hypervisor', false);
    return instance;
  }

  #power(p: AgentTaskParams<'instance.power'>) {
    const instance = this.#existing(p.instance_id);
    const target = p.action === 'start' || p.action === 'restart' ? 'running' : 'stopped';
    // Applying the same action twice changes nothing the second time (idempotent), except restart.
    if (instance.power_state !== target || p.action === 'restart') {
      instance.power_state = target;
      if (target === 'running') {
        const disk = diskOf(instance);
        disk.disk += `boot ${++disk.boots}\n`;
      }
      this.#record('instance.power', p.instance_id, p.action);
    }
    return { power_state: instance.power_state };
  }

  #delete(p: AgentTaskParams<'instance.delete'>) {
    if (!this.#state.instances[p.instance_id]) return { deleted: false };
    delete this.#state.instances[p.instance_id];
    this.#record('instance.delete', p.instance_id, 'deleted');
    return { deleted: true };
  }

  /** A backup's content for a new instance's disk, refused if it is gone or no longer matches. */
  #backupContent(source: { backup_id: string; checksum: string }): string {
    const backup = this.#store.read().backups[source.backup_id];
    if (!backup) throw new DriverFailure('BACKUP_NOT_FOUND', 'the backup is not in the store', false);
    if (sha256(backup.content) !== source.checksum)
      throw new DriverFailure('BACKUP_CORRUPT', 'the backup does not match its checksum', false);
    return backup.content;
  }

  #createBackup(p: AgentTaskParams<'backup.create'>) {
    const store = this.#store.read();
    const existing = store.backups[p.backup_id];
    if (existing) return { size_mb: existing.size_mb, checksum: existing.written_checksum };
    const backup = artifactOf(p.instance_id, diskOf(this.#existing(p.instance_id)));
    store.backups[p.backup_id] = backup;
    this.#store.write(store);
    this.#record('backup.create', p.instance_id, p.backup_id);
    return { size_mb: backup.size_mb, checksum: backup.written_checksum };
  }

  #verifyBackup(p: AgentTaskParams<'backup.verify'>) {
    const backup = this.#store.read().backups[p.backup_id];
    if (!backup) throw new DriverFailure('BACKUP_NOT_FOUND', 'the backup is not in the store', false);
    return { size_mb: backup.size_mb, checksum: sha256(backup.content) };
  }

  #stageBackup(p: AgentTaskParams<'backup.restore'>) {
    const instance = diskOf(this.#existing(p.instance_id));
    const backup = this.#store.read().backups[p.backup_id];
    if (!instance.restores[p.restore_id] && !backup)
      throw new DriverFailure('BACKUP_NOT_FOUND', 'the backup is not in the store', false);
    return this.#stage(p.instance_id, instance, p.restore_id, backup?.content, 'backup.restore');
  }

  #deleteBackup(p: AgentTaskParams<'backup.delete'>) {
    const store = this.#store.read();
    if (!store.backups[p.backup_id]) return { deleted: false };
    delete store.backups[p.backup_id];
    this.#store.write(store);
    this.#record('backup.delete', p.instance_id, p.backup_id);
    return { deleted: true };
  }

  #createSnapshot(p: AgentTaskParams<'snapshot.create'>) {
    const instance = diskOf(this.#existing(p.instance_id));
    const existing = instance.snapshots[p.snapshot_id];
    if (existing) return { size_mb: existing.size_mb, checksum: existing.written_checksum };
    const snapshot = artifactOf(p.instance_id, instance);
    instance.snapshots[p.snapshot_id] = snapshot;
    this.#record('snapshot.create', p.instance_id, p.snapshot_id);
    return { size_mb: snapshot.size_mb, checksum: snapshot.written_checksum };
  }

  #stageSnapshot(p: AgentTaskParams<'snapshot.restore'>) {
    const instance = diskOf(this.#existing(p.instance_id));
    const snapshot = instance.snapshots[p.snapshot_id];
    if (!instance.restores[p.restore_id] && !snapshot)
      throw new DriverFailure('SNAPSHOT_NOT_FOUND', 'no such snapshot of the instance', false);
    return this.#stage(p.instance_id, instance, p.restore_id, snapshot?.content, 'snapshot.restore');
  }

  #deleteSnapshot(p: AgentTaskParams<'snapshot.delete'>) {
    const instance = this.#state.instances[p.instance_id];
    const snapshots = instance ? diskOf(instance).snapshots : {};
    if (!snapshots[p.snapshot_id]) return { deleted: false };
    delete snapshots[p.snapshot_id];
    this.#record('snapshot.delete', p.instance_id, p.snapshot_id);
    return { deleted: true };
  }

  /** Writes `content` beside the current disk under `restoreId`, once: a repeat reports the same disk. */
  #stage(
    instanceId: string,
    instance: DiskState,
    restoreId: string,
    content: string | undefined,
    type: AgentTaskType,
  ) {
    if (!instance.restores[restoreId] && content !== undefined) {
      instance.restores[restoreId] = { staged: content, previous: null };
      this.#record(type, instanceId, restoreId);
    }
    const staged = instance.restores[restoreId]!.staged;
    return { size_mb: sizeOf(instance), checksum: sha256(staged) };
  }

  #swapDisk(p: AgentTaskParams<'disk.swap'>) {
    const instance = diskOf(this.#existing(p.instance_id));
    const restore = instance.restores[p.restore_id];
    if (!restore)
      throw new DriverFailure('RESTORE_NOT_STAGED', 'no restored disk was written for this restore', false);
    if (restore.previous === null) {
      // The guest is stopped for the swap and started again on the restored disk if it was running.
      restore.previous = instance.disk;
      instance.disk = restore.staged;
      this.#record('disk.swap', p.instance_id, p.restore_id);
    }
    return { power_state: instance.power_state, checksum: sha256(instance.disk) };
  }

  #revertDisk(p: AgentTaskParams<'disk.revert'>) {
    const found = this.#state.instances[p.instance_id];
    const instance = found ? diskOf(found) : undefined;
    const restore = instance?.restores[p.restore_id];
    if (!instance || !restore) return { reverted: false };
    if (restore.previous !== null) instance.disk = restore.previous;
    delete instance.restores[p.restore_id];
    this.#record('disk.revert', p.instance_id, p.restore_id);
    return { reverted: restore.previous !== null };
  }

  #releaseDisk(p: AgentTaskParams<'disk.release'>) {
    const found = this.#state.instances[p.instance_id];
    const restores = found ? diskOf(found).restores : {};
    if (!restores[p.restore_id]) return { released: false };
    delete restores[p.restore_id];
    this.#record('disk.release', p.instance_id, p.restore_id);
    return { released: true };
  }

  /** The `corrupt` fault: the artifact's content is damaged where it is kept, its checksum left as written. */
  #corrupt(artifact: NamedArtifact): void {
    if (artifact.kind === 'backup') {
      const store = this.#store.read();
      const backup = store.backups[artifact.id];
      if (!backup) return;
      backup.content = damaged(backup.content);
      this.#store.write(store);
      return;
    }
    const instance = this.#state.instances[artifact.instanceId];
    const snapshot = instance ? diskOf(instance).snapshots[artifact.id] : undefined;
    if (!snapshot) return;
    snapshot.content = damaged(snapshot.content);
    this.#file.write(this.#state);
  }

  #record(type: AgentTaskType, instanceId: string, detail: string): void {
    this.#state.applied.push({ type, instance_id: instanceId, detail, at: new Date().toISOString() });
    this.#file.write(this.#state);
  }

  #arm(entry: FaultsFileEntry): void {
    if (this.#state.armed_faults.some((f) => f.id === entry.id)) return;
    this.#state.armed_faults.push({
      id: entry.id,
      type: entry.type,
      mode: entry.mode,
      skip: (entry.nth ?? 1) - 1,
      remaining: entry.times ?? 1,
    });
    this.#file.write(this.#state);
  }

  #armFromFile(): void {
    const path = simulatedFaultsPath(this.config.AGENT_STATE_DIR);
    if (!existsSync(path)) return;
    let entries: FaultsFileEntry[];
    try {
      entries = FaultsFile.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch (error) {
      // A rehearsal that cannot say what it wants fails every task until it is fixed, rather
      // than let them run unfaulted.
      throw new DriverFailure('INVALID_FAULTS_FILE', `${path}: ${(error as Error).message}`, true);
    }
    for (const entry of entries) this.#arm(entry);
  }

  /** Armed faults first, in the order they were armed; then the configured ones. */
  #takeFault(type: AgentTaskType): FaultMode | undefined {
    let armed: FaultMode | undefined;
    let changed = false;
    for (const pending of this.#state.armed_faults) {
      if (pending.type !== type || pending.remaining === 0) continue;
      changed = true;
      if (pending.skip > 0) pending.skip--;
      else if (armed === undefined) {
        armed = pending.mode;
        pending.remaining--;
      }
    }
    if (changed) this.#file.write(this.#state);
    return armed ?? this.#takeConfiguredFault(type);
  }

  #takeConfiguredFault(type: AgentTaskType): FaultMode | undefined {
    const fault = this.config.AGENT_SIM_FAULTS[type];
    if (!fault) return undefined;
    const fired = this.#state.faults_fired[type] ?? 0;
    if (fault.times !== undefined && fired >= fault.times) return undefined;
    this.#state.faults_fired[type] = fired + 1;
    this.#file.write(this.#state);
    return fault.mode;
  }

  #crash(): never {
    // A real crash: no cleanup, no final report, like a power cut on the hypervisor host.
    process.kill(process.pid, 'SIGKILL');
    throw new Error('unreachable');
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The instance's disk state, filled in where it is missing (see SimulatedInstance.disk). */
function diskOf(instance: SimulatedInstance): DiskState {
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

/** Bit rot: the last character changed. */
const damaged = (content: string) => `${content.slice(0, -1)}${content.endsWith('#') ? '%' : '#'}`;

interface NamedArtifact {
  readonly kind: 'backup' | 'snapshot';
  readonly id: string;
  readonly instanceId: string;
  /** Whether the task writes it (damaged after) or reads it (damaged before). */
  readonly written: boolean;
}

/** The artifact a task names, for the `corrupt` fault; other task types name none and are not hurt. */
function artifactNamedBy(type: AgentTaskType, params: unknown): NamedArtifact | undefined {
  const p = params as {
    instance_id?: string;
    backup_id?: string;
    snapshot_id?: string;
    from_backup?: { backup_id: string };
  };
  const instanceId = p.instance_id ?? '';
  switch (type) {
    case 'backup.create':
      return { kind: 'backup', id: p.backup_id!, instanceId, written: true };
    case 'backup.verify':
    case 'backup.restore':
      return { kind: 'backup', id: p.backup_id!, instanceId, written: false };
    case 'instance.create':
      return p.from_backup
        ? { kind: 'backup', id: p.from_backup.backup_id, instanceId, written: false }
        : undefined;
    case 'snapshot.create':
      return { kind: 'snapshot', id: p.snapshot_id!, instanceId, written: true };
    case 'snapshot.restore':
      return { kind: 'snapshot', id: p.snapshot_id!, instanceId, written: false };
    default:
      return undefined;
  }
}

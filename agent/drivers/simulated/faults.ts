import { existsSync, readFileSync } from 'node:fs';
import type { AgentTaskType } from '../../../domain/agent-tasks.js';
import type { FaultMode } from '../../config.js';
import { DriverFailure } from '../driver.js';
import { diskOf } from './artifacts.js';
import type { SimulatedHost } from './host.js';
import { FaultsFile, type FaultsFileEntry, simulatedFaultsPath } from './state.js';

/**
 * The faults a rehearsal injects: configured per task type (AGENT_SIM_FAULTS), or armed while the
 * agent runs (armFault, or AGENT_STATE_DIR/faults.json read before every task). Armed faults fire
 * first, in the order they were armed; the state file remembers what fired across restarts.
 */
export class SimulatedFaults {
  constructor(private readonly host: SimulatedHost) {}

  arm(entry: FaultsFileEntry): void {
    const { state } = this.host;
    if (state.armed_faults.some((f) => f.id === entry.id)) return;
    state.armed_faults.push({
      id: entry.id,
      type: entry.type,
      mode: entry.mode,
      skip: (entry.nth ?? 1) - 1,
      remaining: entry.times ?? 1,
    });
    this.host.save();
  }

  armFromFile(): void {
    const path = simulatedFaultsPath(this.host.config.AGENT_STATE_DIR);
    if (!existsSync(path)) return;
    let entries: FaultsFileEntry[];
    try {
      entries = FaultsFile.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch (error) {
      // A rehearsal that cannot say what it wants fails every task until it is fixed, rather
      // than let them run unfaulted.
      throw new DriverFailure('INVALID_FAULTS_FILE', `${path}: ${(error as Error).message}`, true);
    }
    for (const entry of entries) this.arm(entry);
  }

  /** The fault this call of `type` meets, if any: armed faults first, then the configured one. */
  take(type: AgentTaskType): FaultMode | undefined {
    let armed: FaultMode | undefined;
    let changed = false;
    for (const pending of this.host.state.armed_faults) {
      if (pending.type !== type || pending.remaining === 0) continue;
      changed = true;
      if (pending.skip > 0) pending.skip--;
      else if (armed === undefined) {
        armed = pending.mode;
        pending.remaining--;
      }
    }
    if (changed) this.host.save();
    return armed ?? this.#takeConfigured(type);
  }

  #takeConfigured(type: AgentTaskType): FaultMode | undefined {
    const { state } = this.host;
    const fault = this.host.config.AGENT_SIM_FAULTS[type];
    if (!fault) return undefined;
    const fired = state.faults_fired[type] ?? 0;
    if (fault.times !== undefined && fired >= fault.times) return undefined;
    state.faults_fired[type] = fired + 1;
    this.host.save();
    return fault.mode;
  }

  /** The `corrupt` fault: the artifact's content is damaged where it is kept, its checksum left as written. */
  corrupt(artifact: NamedArtifact): void {
    if (artifact.kind === 'backup') {
      const store = this.host.store.read();
      const backup = store.backups[artifact.id];
      if (!backup) return;
      backup.content = damaged(backup.content);
      this.host.store.write(store);
      return;
    }
    const instance = this.host.state.instances[artifact.instanceId];
    const snapshot = instance ? diskOf(instance).snapshots[artifact.id] : undefined;
    if (!snapshot) return;
    snapshot.content = damaged(snapshot.content);
    this.host.save();
  }
}

/** A real crash: no cleanup, no final report, like a power cut on the hypervisor host. */
export function crash(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** Bit rot: the last character changed. */
const damaged = (content: string) => `${content.slice(0, -1)}${content.endsWith('#') ? '%' : '#'}`;

export interface NamedArtifact {
  readonly kind: 'backup' | 'snapshot';
  readonly id: string;
  readonly instanceId: string;
  /** Whether the task writes it (damaged after) or reads it (damaged before). */
  readonly written: boolean;
}

/** The artifact a task names, for the `corrupt` fault; other task types name none and are not hurt. */
export function artifactNamedBy(type: AgentTaskType, params: unknown): NamedArtifact | undefined {
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

import { randomUUID } from 'node:crypto';
import { AGENT_TASKS, type AgentTaskParams, type AgentTaskType } from '../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../domain/migrations/disks.js';
import { openRelay } from '../../console/relay.js';
import { sleep } from '../../panel-client.js';
import {
  type Capacity,
  DriverFailure,
  type GuestReport,
  type HypervisorDriver,
  type InstanceSample,
  type TaskContext,
} from '../driver.js';
import {
  createBackup,
  createSnapshot,
  deleteBackup,
  deleteSnapshot,
  releaseDisk,
  revertDisk,
  stageBackup,
  stageSnapshot,
  swapDisk,
  verifyBackup,
} from './artifacts.js';
import { simulatedConsole } from './console.js';
import { resizeDisk } from './disks.js';
import { artifactNamedBy, crash, SimulatedFaults } from './faults.js';
import { type SimulatedConfig, SimulatedHost } from './host.js';
import { deleteImage, fetchImage } from './images.js';
import { createInstance, deleteInstance, powerInstance, rebuildInstance, setPassword } from './instances.js';
import { withLiveFigures } from './live-figures.js';
import { bootIso, deleteInstanceIso, fetchInstanceIso, mountIso } from './media.js';
import { applyMigrationTask, isMigrationTask, type MigrationTaskType } from './migration.js';
import { applyFirewall, applyNetwork } from './network.js';
import { changeRescue } from './rescue.js';
import { resizeInstance } from './resize.js';
import { type ArmedFault, FaultsFile, type SimulatedBackupStore, type SimulatedState } from './state.js';
import {
  abortCopy,
  cleanUpOldCopy,
  copyDisk,
  revertDisks,
  switchDisks,
  verifyCopy,
} from './storage-moves.js';
import { attachVolume, createVolume, deleteVolume, detachVolume, resizeVolume } from './volumes.js';

type Params = Record<string, unknown>;
type LocalTask = Exclude<AgentTaskType, MigrationTaskType>;

/**
 * A hypervisor simulated in a local file: instances, their disks, power and addresses. It takes
 * per-task-type latency and injects the configured faults. It is the one fake in the system,
 * standing where a libvirt driver would. The tasks are in the files beside this one, by group.
 */
export class SimulatedDriver implements HypervisorDriver {
  readonly #host: SimulatedHost;
  readonly #faults: SimulatedFaults;
  readonly #tasks: Record<
    LocalTask,
    (p: Params, ctx: TaskContext) => Record<string, unknown> | Promise<Record<string, unknown>>
  >;

  constructor(config: SimulatedConfig) {
    const host = new SimulatedHost(config);
    this.#host = host;
    this.#faults = new SimulatedFaults(host);
    const as = <T extends AgentTaskType>(p: Params) => p as AgentTaskParams<T>;
    this.#tasks = {
      'instance.create': (p) => createInstance(host, as<'instance.create'>(p)),
      'instance.power': (p) => powerInstance(host, as<'instance.power'>(p)),
      'instance.state': (p) => {
        const { instance_id } = as<'instance.state'>(p);
        return {
          power_state: host.existing(instance_id).power_state,
          ...(host.movingOut.has(instance_id) && { moving_out: true }),
        };
      },
      'instance.delete': (p) => deleteInstance(host, as<'instance.delete'>(p)),
      'instance.rebuild': (p) => rebuildInstance(host, as<'instance.rebuild'>(p)),
      'instance.set_password': (p) => setPassword(host, as<'instance.set_password'>(p)),
      'instance.resize': (p) => resizeInstance(host, as<'instance.resize'>(p)),
      'backup.create': (p) => createBackup(host, as<'backup.create'>(p)),
      'backup.verify': (p) => verifyBackup(host, as<'backup.verify'>(p)),
      'backup.restore': (p) => stageBackup(host, as<'backup.restore'>(p)),
      'backup.delete': (p) => deleteBackup(host, as<'backup.delete'>(p)),
      'snapshot.create': (p) => createSnapshot(host, as<'snapshot.create'>(p)),
      'snapshot.restore': (p) => stageSnapshot(host, as<'snapshot.restore'>(p)),
      'snapshot.delete': (p) => deleteSnapshot(host, as<'snapshot.delete'>(p)),
      'disk.swap': (p) => swapDisk(host, as<'disk.swap'>(p)),
      'disk.revert': (p) => revertDisk(host, as<'disk.revert'>(p)),
      'disk.release': (p) => releaseDisk(host, as<'disk.release'>(p)),
      'disk.resize': (p) => resizeDisk(host, as<'disk.resize'>(p)),
      'volume.create': (p) => createVolume(host, as<'volume.create'>(p)),
      'volume.attach': (p) => attachVolume(host, as<'volume.attach'>(p)),
      'volume.detach': (p) => detachVolume(host, as<'volume.detach'>(p)),
      'volume.resize': (p) => resizeVolume(host, as<'volume.resize'>(p)),
      'volume.delete': (p) => deleteVolume(host, as<'volume.delete'>(p)),
      'iso.fetch': (p, ctx) => fetchInstanceIso(host, as<'iso.fetch'>(p), ctx.signal),
      'image.fetch': (p, ctx) => fetchImage(host, as<'image.fetch'>(p), ctx.signal),
      'image.delete': (p) => deleteImage(host, as<'image.delete'>(p)),
      'console.open': (p, ctx) => {
        const open = as<'console.open'>(p);
        return openRelay(open, simulatedConsole(host, open.instance_id), ctx.signal);
      },
      'iso.mount': (p) => mountIso(host, as<'iso.mount'>(p)),
      'iso.boot': (p) => bootIso(host, as<'iso.boot'>(p)),
      'iso.delete': (p) => deleteInstanceIso(host, as<'iso.delete'>(p)),
      'rescue.enter': (p) => changeRescue(host, as<'rescue.enter'>(p), true),
      'rescue.exit': (p) => changeRescue(host, as<'rescue.exit'>(p), false),
      'network.apply': (p) => applyNetwork(host, as<'network.apply'>(p)),
      'firewall.apply': (p) => applyFirewall(host, as<'firewall.apply'>(p)),
      'storage.copy': (p) => copyDisk(host, as<'storage.copy'>(p)),
      'storage.verify': (p) => verifyCopy(host, as<'storage.verify'>(p)),
      'storage.switch': (p) => switchDisks(host, as<'storage.switch'>(p)),
      'storage.abort': (p) => abortCopy(host, as<'storage.abort'>(p)),
      'storage.revert': (p) => revertDisks(host, as<'storage.revert'>(p)),
      'storage.cleanup': (p) => cleanUpOldCopy(host, as<'storage.cleanup'>(p)),
      'hypervisor.probe': () => ({ instances: Object.keys(host.state.instances).length }),
    };
  }

  /** The simulated hypervisor as it stands: instances, applied changes, faults. */
  snapshot(): SimulatedState {
    return structuredClone(this.#host.state);
  }

  /** The location's backup store as it stands. */
  backupStore(): SimulatedBackupStore {
    return this.#host.store.read();
  }

  /** A test's knob: how fast the guest dirties its memory, MiB/s, for its live moves (live-move.ts). */
  setDirtyRate(instanceId: string, mibPerS: number): void {
    this.#host.existing(instanceId).dirty_mib_s = mibPerS;
    this.#host.save();
  }

  /** A test's knob: the simulated link live moves out of here go over, MiB/s (0: it moves nothing); null: as fast as their cap. */
  setLinkRate(mibPerS: number | null): void {
    if (mibPerS === null) delete this.#host.state.migration_link_mib_s;
    else this.#host.state.migration_link_mib_s = mibPerS;
    this.#host.save();
  }

  /** Arms a fault for the coming calls of `type` (see ArmedFault). */
  armFault(type: AgentTaskType, fault: ArmedFault): void {
    this.#faults.arm(FaultsFile.element.parse({ id: randomUUID(), type, ...fault }));
  }

  async execute(type: AgentTaskType, rawParams: unknown, ctx: TaskContext): Promise<Record<string, unknown>> {
    const parsed = AGENT_TASKS[type].params.safeParse(rawParams);
    if (!parsed.success) throw new DriverFailure('INVALID_PARAMS', parsed.error.message, false);
    this.#faults.armFromFile();
    const fault = this.#faults.take(type);
    if (fault === 'crash-before') crash();
    if (fault === 'fail') throw new DriverFailure('SIMULATED_FAILURE', `simulated failure of ${type}`, true);
    if (fault === 'fail-permanently')
      throw new DriverFailure('SIMULATED_FAILURE', `simulated failure of ${type}`, false);

    const reporting = withLiveFigures(type, parsed.data, this.#host.state, ctx);
    await this.#work(type, reporting, fault === 'hang', this.#transferMs(type, parsed.data));
    const artifact = fault === 'corrupt' ? artifactNamedBy(type, parsed.data) : undefined;
    if (artifact && !artifact.written) this.#faults.corrupt(artifact);
    const result = isMigrationTask(type)
      ? await this.#migrate(type, parsed.data, ctx)
      : await this.#tasks[type as LocalTask](parsed.data as Params, ctx);
    if (artifact?.written) this.#faults.corrupt(artifact);
    if (fault === 'crash-after') crash();
    if (fault === 'fail-after')
      throw new DriverFailure(
        'SIMULATED_FAILURE',
        `simulated failure of ${type} after it was applied`,
        false,
      );
    return result;
  }

  freeCapacity(): Capacity {
    return this.#host.freeCapacity();
  }

  async guests(): Promise<GuestReport[]> {
    return this.#host.guestsOnFile();
  }

  sample(now: Date): InstanceSample[] {
    return Object.entries(this.#host.state.instances)
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

  /** A disk transfer's time by the size of the disk (AGENT_SIM_TRANSFER_MS_PER_GB); 0 once it arrived. */
  #transferMs(type: AgentTaskType, params: unknown): number {
    const perGb = this.#host.config.AGENT_SIM_TRANSFER_MS_PER_GB;
    if (type !== 'disk.transfer' || perGb === 0) return 0;
    const { migration_id, disk } = params as AgentTaskParams<'disk.transfer'>;
    const incoming = this.#host.state.incoming?.[migration_id];
    const volumeId = volumeOfDisk(disk);
    const sizeMb = volumeId ? incoming?.volumes?.[volumeId]?.size_mb : incoming?.disk_mb;
    const arrived = volumeId ? incoming?.volumes?.[volumeId]?.arrived : incoming?.disk;
    return sizeMb && !arrived ? Math.round((sizeMb / 1024) * perGb) : 0;
  }

  /** The latency of the operation, with progress along the way; a hang lasts until aborted. */
  async #work(type: AgentTaskType, ctx: TaskContext, hang: boolean, extraMs = 0): Promise<void> {
    const latencies = this.#host.config.AGENT_SIM_LATENCY_MS;
    const latency = (latencies[type] ?? latencies.default ?? 0) + extraMs;
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
    const host = this.#host;
    // While a live move runs, the source says so to a look at the guest (`instance.state`).
    const moving = type === 'migration.live' ? (params as { instance_id: string }).instance_id : undefined;
    if (moving) host.movingOut.add(moving);
    const applied = await applyMigrationTask(host.state, type, params, ctx, (need, preparing) =>
      host.fits(need, preparing),
    ).finally(() => moving && host.movingOut.delete(moving));
    if (applied.detail) host.record(type, applied.instanceId, applied.detail);
    else host.save();
    return applied.result;
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  AGENT_TASK_TYPES,
  AGENT_TASKS,
  type AgentTaskParams,
  type AgentTaskType,
} from '../../domain/agent-tasks.js';
import { type AgentConfig, FAULT_MODES, type FaultMode } from '../config.js';
import { sleep } from '../panel-client.js';
import { StateFile } from '../state-file.js';
import {
  type Capacity,
  DriverFailure,
  type HypervisorDriver,
  type InstanceSample,
  type TaskContext,
} from './driver.js';
import {
  applyMigrationTask,
  type IncomingInstance,
  isMigrationTask,
  type MigrationTaskType,
} from './simulated-migration.js';

export interface SimulatedInstance {
  hostname: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  image: string;
  boot_order: string[];
  ipv4: string | null;
  ipv6: string | null;
  power_state: 'running' | 'stopped';
  created_at: string;
  timezone: string;
  /** What a test compares with the password the customer was shown; the password itself is not kept. */
  root_password_sha256: string;
  ssh_keys: string[];
  /** How many times the disk was written from an image (1 after create). */
  disk_generation: number;
  last_rebuild_id: string | null;
}

/** One change the simulated hypervisor applied, in order: what tests read to count effects. */
export interface AppliedChange {
  type: AgentTaskType;
  instance_id: string;
  detail: string;
  at: string;
}

/**
 * A fault armed while the driver runs. It hits `times` calls of its task type in a row (default
 * 1), starting with the `nth` call counted from its arming (default 1: the very next one).
 */
export interface ArmedFault {
  readonly mode: FaultMode;
  readonly nth?: number;
  readonly times?: number;
}

/** An armed fault as the driver keeps it: calls to let through first, then calls to hit. */
interface PendingFault {
  id: string;
  type: AgentTaskType;
  mode: FaultMode;
  skip: number;
  remaining: number;
}

export interface SimulatedState {
  instances: Record<string, SimulatedInstance>;
  applied: AppliedChange[];
  /** How often each task type's fault has fired, across restarts (for `times`). */
  faults_fired: Partial<Record<AgentTaskType, number>>;
  /** Faults armed at run time, kept across restarts so a crash fault does not fire again. */
  armed_faults: PendingFault[];
  /** Instances arriving by migration, by migration id (simulated-migration.ts). */
  incoming?: Record<string, IncomingInstance>;
}

export const simulatedStatePath = (stateDir: string) => join(stateDir, 'simulated-hypervisor.json');

/**
 * Rehearsals arm faults in a running agent by adding entries to this file; the driver reads it
 * before every task and arms each entry (by `id`) once. Write it whole, by rename.
 */
export const simulatedFaultsPath = (stateDir: string) => join(stateDir, 'faults.json');

export const FaultsFile = z.array(
  z.object({
    id: z.string().min(1),
    type: z.enum(AGENT_TASK_TYPES),
    mode: z.enum(FAULT_MODES),
    nth: z.number().int().positive().optional(),
    times: z.number().int().positive().optional(),
  }),
);
export type FaultsFileEntry = z.infer<typeof FaultsFile>[number];

/**
 * A hypervisor simulated in a local file: instances, their disks, power and addresses. It takes
 * per-task-type latency and injects the configured faults. It is the one fake in the system,
 * standing where a libvirt driver would.
 */
export class SimulatedDriver implements HypervisorDriver {
  readonly #file: StateFile<SimulatedState>;
  #state: SimulatedState;

  constructor(
    private readonly config: Pick<
      AgentConfig,
      'AGENT_STATE_DIR' | 'AGENT_CAPACITY' | 'AGENT_SIM_LATENCY_MS' | 'AGENT_SIM_FAULTS'
    >,
  ) {
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
    const result = isMigrationTask(type)
      ? await this.#migrate(type, parsed.data, ctx)
      : this.#apply(type as Exclude<AgentTaskType, MigrationTaskType>, parsed.data);
    if (fault === 'crash-after') this.#crash();
    return result;
  }

  freeCapacity(): Capacity {
    const used = Object.values(this.#state.instances).reduce(
      (sum, i) => ({ cpu: sum.cpu + i.cpu_cores, mem: sum.mem + i.memory_mb, disk: sum.disk + i.disk_mb }),
      { cpu: 0, mem: 0, disk: 0 },
    );
    const total = this.config.AGENT_CAPACITY;
    return {
      cpu_cores: Math.max(0, total.cpu_cores - used.cpu),
      memory_mb: Math.max(0, total.memory_mb - used.mem),
      disk_mb: Math.max(0, total.disk_mb - used.disk),
    };
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
    const applied = await applyMigrationTask(this.#state, type, params, ctx, (need) => {
      const free = this.freeCapacity();
      return (
        free.cpu_cores >= need.cpu_cores && free.memory_mb >= need.memory_mb && free.disk_mb >= need.disk_mb
      );
    });
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
      case 'hypervisor.probe':
        return { instances: Object.keys(this.#state.instances).length };
    }
  }

  #create(p: AgentTaskParams<'instance.create'>) {
    const existing = this.#state.instances[p.instance_id];
    if (existing) return { power_state: existing.power_state };
    const free = this.freeCapacity();
    if (free.cpu_cores < p.cpu_cores || free.memory_mb < p.memory_mb || free.disk_mb < p.disk_mb) {
      throw new DriverFailure(
        'INSUFFICIENT_CAPACITY',
        'the hypervisor lacks the capacity for this instance',
        false,
      );
    }
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
    };
    this.#record('instance.create', p.instance_id, power_state);
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

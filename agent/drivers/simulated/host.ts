import { createHash } from 'node:crypto';
import type { AgentTaskType } from '../../../domain/agent-tasks.js';
import { fitsIn, type Resources } from '../../../domain/capacity.js';
import { reportedRoom } from '../../../domain/instances/hot-resize.js';
import type { AgentConfig } from '../../config.js';
import { StateFile } from '../../state-file.js';
import { type Capacity, DriverFailure, type GuestReport } from '../driver.js';
import { hostFreeCapacity, instancesRoom } from '../host-capacity.js';
import {
  type SimulatedBackupStore,
  type SimulatedInstance,
  type SimulatedState,
  simulatedBackupStorePath,
  simulatedStatePath,
} from './state.js';

export type SimulatedConfig = Pick<
  AgentConfig,
  | 'AGENT_STATE_DIR'
  | 'AGENT_CAPACITY'
  | 'AGENT_SIM_LATENCY_MS'
  | 'AGENT_SIM_TRANSFER_MS_PER_GB'
  | 'AGENT_SIM_FAULTS'
> &
  Partial<Pick<AgentConfig, 'AGENT_SIM_BACKUP_DIR'>>;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What the simulated hypervisor knows, shared by its task groups: its state file (instances,
 * their disks, what was applied, the faults) and the location's backup store, which other agents
 * of the location write too and is therefore read afresh for every use.
 */
export class SimulatedHost {
  readonly #file: StateFile<SimulatedState>;
  readonly state: SimulatedState;
  readonly store: StateFile<SimulatedBackupStore>;
  /** The instances a live move out of here is moving now (not kept: a restarted agent moves none). */
  readonly movingOut = new Set<string>();

  constructor(readonly config: SimulatedConfig) {
    this.store = new StateFile(
      simulatedBackupStorePath(config.AGENT_SIM_BACKUP_DIR ?? config.AGENT_STATE_DIR),
      () => ({ backups: {} }),
    );
    this.#file = new StateFile(simulatedStatePath(config.AGENT_STATE_DIR), () => ({
      instances: {},
      applied: [],
      faults_fired: {},
      armed_faults: [],
    }));
    this.state = this.#file.read();
    // State files written before faults could be armed at run time have no list.
    this.state.armed_faults ??= [];
  }

  save(): void {
    this.#file.write(this.state);
  }

  /** A change applied to the hypervisor, in its list of what was applied (what tests read). */
  record(type: AgentTaskType, instanceId: string, detail: string): void {
    this.state.applied.push({ type, instance_id: instanceId, detail, at: new Date().toISOString() });
    this.save();
  }

  existing(instanceId: string): SimulatedInstance {
    const instance = this.state.instances[instanceId];
    if (!instance)
      throw new DriverFailure('INSTANCE_NOT_FOUND', 'no such instance on this hypervisor', false);
    return instance;
  }

  /** The host's size less its instances, the guests arriving by migration and the volumes (agent/drivers/host-capacity.ts). */
  freeCapacity(preparing?: string): Capacity {
    return hostFreeCapacity(this.config.AGENT_CAPACITY, {
      instances: instancesRoom(this.state.instances, Object.values(this.state.incoming ?? {}), preparing),
      incoming: Object.values(this.state.incoming ?? {}),
      volumes: Object.values(this.state.volumes ?? {}),
    });
  }

  /**
   * The instances as the state file holds them now, read afresh: the file is the simulated host,
   * so a guest taken out of it (by hand, or by a test playing a host that lost it) is gone.
   */
  guestsOnFile(): GuestReport[] {
    return Object.entries(this.#file.read().instances).map(([id, i]) => ({
      instance_uuid: id,
      power_state: i.power_state,
      ...reportedRoom(i, i.power_state),
    }));
  }

  fits(need: Resources, preparing?: string): boolean {
    return fitsIn(this.freeCapacity(preparing), need);
  }
}

import type { TaskContext } from '../driver.js';
import { DriverFailure } from '../driver.js';
import { arrivalRoom } from '../host-capacity.js';
import { appliedConvergence, downtimeUnder } from './convergence.js';
import { simulateLiveMove } from './live-move.js';
import { DISK_TASKS } from './migration-disks.js';
import {
  type Applied,
  type Arriving,
  type Fits,
  incomingOf,
  type MigrationTaskType,
  ownInstance,
  type TaskHandlers,
} from './migration-tasks.js';
import { discardVolumes, expectedVolumes, landVolumes } from './migration-volumes.js';
import { removeRetained, restoreSetAside, setAsideRetained } from './retained-copies.js';
import type { MigrationState } from './state.js';

export { isMigrationTask, type MigrationTaskType } from './migration-tasks.js';

// The simulated hypervisor's side of a migration: the arriving guest kept under `incoming` until it
// starts here, and the source's copy until its cleanup, set aside if the instance comes back here
// first (retained-copies.ts). The disks go by migration-disks.ts.

/**
 * Each migration task, on the simulated host. Each is idempotent: run twice (an agent restarted
 * mid-task), it leaves the host as once. `detail` is set when something changed (recorded as an
 * applied change).
 */
const MIGRATION_TASKS: TaskHandlers<MigrationTaskType> = {
  ...DISK_TASKS,
  'migration.prepare_target': (state, p, _ctx, fits) => {
    if (!state.incoming[p.migration_id]) {
      const volumes = expectedVolumes(p.volumes);
      if (!fits(arrivalRoom({ ...p, volumes }), p.instance_id))
        throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the target lacks the capacity', false);
      state.incoming[p.migration_id] = {
        instance_id: p.instance_id,
        hostname: p.hostname,
        cpu_cores: p.cpu_cores,
        memory_mb: p.memory_mb,
        disk_mb: p.disk_mb,
        disk: null,
        network_ready: false,
        defined: false,
        started: false,
        ...(p.volumes && { volumes }),
      };
      return { result: { prepared: true }, detail: 'prepared', instanceId: p.instance_id };
    }
    return { result: { prepared: true }, instanceId: p.instance_id };
  },
  'network.prepare': (state, p) => {
    // The guest gets its addresses, NICs and firewall where it lands, as they were on the source.
    Object.assign(incomingOf(state, p.migration_id), {
      network_ready: true,
      ipv4: p.ipv4,
      ipv6: p.ipv6,
      ...(p.network && { network: p.network }),
      ...(p.firewall && { firewall: p.firewall }),
    });
    return { result: { prepared: true }, detail: 'network prepared', instanceId: p.instance_id };
  },
  'network.release': (state, p) => {
    const incoming = state.incoming[p.migration_id];
    if (incoming) incoming.network_ready = false;
    return { result: { released: true }, instanceId: p.instance_id };
  },
  'migration.define_target': (state, p) => {
    const incoming = incomingOf(state, p.migration_id);
    incoming.defined = true;
    if (p.post_copy) incoming.post_copy = true;
    return { result: { defined: true }, detail: 'defined', instanceId: p.instance_id };
  },
  'migration.live': async (state, p, ctx) => {
    // The guest's memory has moved: the source's copy is paused, kept until cleanup.
    const instance = ownInstance(state, p.instance_id);
    // Set once, as the first attempt set it: a repeat answers what the move ran with.
    state.converged ??= {};
    state.converged[p.migration_id] ??= appliedConvergence(p.convergence);
    const applied = state.converged[p.migration_id]!;
    if (instance.power_state === 'stopped')
      return { result: { downtime_ms: downtimeUnder(applied), applied }, instanceId: p.instance_id };
    const busy = (instance.dirty_mib_s ?? 0) > 0 || state.migration_link_mib_s !== undefined;
    let downtime = downtimeUnder(applied);
    // A busy guest (or a slow link) goes through the model; runs without a policy keep the old way.
    if (busy && p.convergence) {
      const guest = {
        memory_mb: instance.memory_mb,
        dirty_mib_s: instance.dirty_mib_s ?? 0,
        link_mib_s: state.migration_link_mib_s,
      };
      const moved = await simulateLiveMove(guest, p.convergence, applied, ctx, () => {
        instance.power_state = 'stopped';
      });
      downtime = moved.downtime_ms;
    }
    instance.power_state = 'stopped';
    return {
      result: { downtime_ms: downtime, applied },
      detail: 'migrated live',
      instanceId: p.instance_id,
    };
  },
  'migration.start_target': (state, p) => {
    const incoming = incomingOf(state, p.migration_id);
    if (!incoming.disk || !incoming.defined)
      throw new DriverFailure('TARGET_NOT_DEFINED', 'the target guest is not defined', false);
    if (!incoming.started) {
      setAsideRetained(state, incoming);
      state.instances[p.instance_id] = {
        hostname: incoming.disk.hostname,
        cpu_cores: incoming.cpu_cores,
        memory_mb: incoming.memory_mb,
        disk_mb: incoming.disk_mb,
        image: incoming.disk.image,
        boot_order: ['disk'],
        ipv4: incoming.ipv4 ?? null,
        ipv6: incoming.ipv6 ?? null,
        ...(incoming.network && { network: incoming.network }),
        ...(incoming.firewall && { firewall: incoming.firewall }),
        power_state: p.start ? 'running' : 'stopped',
        created_at: new Date().toISOString(),
        timezone: incoming.disk.timezone,
        root_password_sha256: incoming.disk.root_password_sha256,
        ssh_keys: [],
        disk_generation: incoming.disk.disk_generation,
        last_rebuild_id: null,
        // Moved live, the guest runs on in the process the source booted: with the room it had.
        ...incoming.disk.growth,
      };
      landVolumes(state, incoming);
      incoming.started = true;
      return {
        result: { power_state: p.start ? 'running' : 'stopped' },
        detail: 'started',
        instanceId: p.instance_id,
      };
    }
    return {
      result: { power_state: ownInstance(state, p.instance_id).power_state },
      instanceId: p.instance_id,
    };
  },
  'migration.verify_target': (state, p) => {
    return {
      result: { power_state: ownInstance(state, p.instance_id).power_state },
      instanceId: p.instance_id,
    };
  },
  'migration.discard_target': (state, p) => {
    const incoming = state.incoming[p.migration_id];
    if (!incoming) return { result: { discarded: false }, instanceId: p.instance_id };
    if (incoming.started) {
      delete state.instances[p.instance_id];
      discardVolumes(state, incoming);
      restoreSetAside(state, incoming);
    }
    delete state.incoming[p.migration_id];
    return { result: { discarded: true }, detail: 'discarded', instanceId: p.instance_id };
  },
  'migration.cleanup_source': (state, p) => {
    delete state.converged?.[p.migration_id];
    if (!removeRetained(state, p.migration_id, p.instance_id))
      return { result: { removed: false }, instanceId: p.instance_id };
    return { result: { removed: true }, detail: 'source removed', instanceId: p.instance_id };
  },
};

export async function applyMigrationTask(
  state: MigrationState,
  type: MigrationTaskType,
  params: unknown,
  ctx: TaskContext,
  fits: Fits,
): Promise<Applied> {
  state.incoming ??= {};
  return MIGRATION_TASKS[type](state as Arriving, params as never, ctx, fits);
}

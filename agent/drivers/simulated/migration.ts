import { createHash } from 'node:crypto';
import type { AgentTaskParams, AgentTaskType } from '../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../driver.js';
import type { DiskContent, IncomingInstance, MigrationState, SimulatedInstance } from './state.js';

/**
 * The simulated hypervisor's side of a migration. A disk is the instance's content descriptor;
 * its checksum is what both sides compare. The sender's `endpoint` carries the descriptor the way
 * a real endpoint is where the receiver reads the bytes from; the receiver gets it only by
 * redeeming the migration's transfer token through the panel.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const diskChecksum = (disk: DiskContent) =>
  sha256(
    JSON.stringify([
      disk.image,
      disk.hostname,
      disk.timezone,
      disk.root_password_sha256,
      disk.disk_generation,
    ]),
  );

const contentOf = (instance: SimulatedInstance): DiskContent => ({
  image: instance.image,
  hostname: instance.hostname,
  timezone: instance.timezone,
  root_password_sha256: instance.root_password_sha256,
  disk_generation: instance.disk_generation,
});

type P<T extends MigrationTaskType> = AgentTaskParams<T>;

function incomingOf(state: MigrationState, migrationId: string): IncomingInstance {
  const incoming = state.incoming?.[migrationId];
  if (!incoming)
    throw new DriverFailure(
      'MIGRATION_NOT_PREPARED',
      'the target was not prepared for this migration',
      false,
    );
  return incoming;
}

function ownInstance(state: MigrationState, instanceId: string): SimulatedInstance {
  const instance = state.instances[instanceId];
  if (!instance) throw new DriverFailure('INSTANCE_NOT_FOUND', 'no such instance on this hypervisor', false);
  return instance;
}

const MIGRATION_TASK_TYPES = [
  'migration.prepare_target',
  'disk.export',
  'disk.transfer',
  'disk.verify',
  'network.prepare',
  'network.release',
  'migration.define_target',
  'migration.live',
  'migration.start_target',
  'migration.verify_target',
  'migration.discard_target',
  'migration.cleanup_source',
] as const satisfies readonly AgentTaskType[];
export type MigrationTaskType = (typeof MIGRATION_TASK_TYPES)[number];

export const isMigrationTask = (type: AgentTaskType): type is MigrationTaskType =>
  (MIGRATION_TASK_TYPES as readonly string[]).includes(type);

type Applied = { result: Record<string, unknown>; detail?: string; instanceId: string };
type Arriving = MigrationState & { incoming: Record<string, IncomingInstance> };
type Fits = (need: { cpu_cores: number; memory_mb: number; disk_mb: number }) => boolean;

/**
 * Each migration task, on the simulated host. Each is idempotent: run twice (an agent restarted
 * mid-task), it leaves the host as once. `detail` is set when something changed (recorded as an
 * applied change).
 */
const MIGRATION_TASKS: {
  [T in MigrationTaskType]: (
    state: Arriving,
    p: P<T>,
    ctx: TaskContext,
    fits: Fits,
  ) => Applied | Promise<Applied>;
} = {
  'migration.prepare_target': (state, p, _ctx, fits) => {
    if (!state.incoming[p.migration_id]) {
      if (!fits(p)) throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the target lacks the capacity', false);
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
      };
      return { result: { prepared: true }, detail: 'prepared', instanceId: p.instance_id };
    }
    return { result: { prepared: true }, instanceId: p.instance_id };
  },
  'disk.export': (state, p) => {
    const content = contentOf(ownInstance(state, p.instance_id));
    const endpoint = `sim:${Buffer.from(JSON.stringify(content)).toString('base64url')}`;
    return {
      result: {
        checksum: diskChecksum(content),
        size_mb: ownInstance(state, p.instance_id).disk_mb,
        endpoint,
      },
      instanceId: p.instance_id,
    };
  },
  'disk.transfer': async (state, p, ctx) => {
    const incoming = incomingOf(state, p.migration_id);
    if (!incoming.disk) {
      const { endpoint } = await ctx.redeemTransfer(p.transfer_token);
      if (!endpoint.startsWith('sim:'))
        throw new DriverFailure(
          'TRANSFER_ENDPOINT_UNKNOWN',
          'the sender is not a simulated hypervisor',
          false,
        );
      incoming.disk = JSON.parse(Buffer.from(endpoint.slice(4), 'base64url').toString('utf8')) as DiskContent;
      return {
        result: { checksum: diskChecksum(incoming.disk), size_mb: incoming.disk_mb },
        detail: 'disk received',
        instanceId: p.instance_id,
      };
    }
    return {
      result: { checksum: diskChecksum(incoming.disk), size_mb: incoming.disk_mb },
      instanceId: p.instance_id,
    };
  },
  'disk.verify': (state, p) => {
    const incoming = incomingOf(state, p.migration_id);
    if (!incoming.disk)
      throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
    return { result: { checksum: diskChecksum(incoming.disk) }, instanceId: p.instance_id };
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
    incomingOf(state, p.migration_id).defined = true;
    return { result: { defined: true }, detail: 'defined', instanceId: p.instance_id };
  },
  'migration.live': (state, p) => {
    // The guest's memory has moved: the source's copy is paused, kept until cleanup.
    const instance = ownInstance(state, p.instance_id);
    const changed = instance.power_state !== 'stopped';
    instance.power_state = 'stopped';
    return {
      result: { downtime_ms: 12 },
      ...(changed ? { detail: 'migrated live' } : {}),
      instanceId: p.instance_id,
    };
  },
  'migration.start_target': (state, p) => {
    const incoming = incomingOf(state, p.migration_id);
    if (!incoming.disk || !incoming.defined)
      throw new DriverFailure('TARGET_NOT_DEFINED', 'the target guest is not defined', false);
    if (!incoming.started) {
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
      };
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
    if (incoming.started) delete state.instances[p.instance_id];
    delete state.incoming[p.migration_id];
    return { result: { discarded: true }, detail: 'discarded', instanceId: p.instance_id };
  },
  'migration.cleanup_source': (state, p) => {
    if (!state.instances[p.instance_id]) return { result: { removed: false }, instanceId: p.instance_id };
    delete state.instances[p.instance_id];
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

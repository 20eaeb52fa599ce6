import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { reportedRoom } from '../../../domain/instances/hot-resize.js';
import { DriverFailure } from '../driver.js';
import { backupContent, diskOf } from './artifacts.js';
import { type SimulatedHost, sha256 } from './host.js';
import { dropIsosOf } from './media.js';
import type { SimulatedInstance } from './state.js';
import { releaseVolumesOf } from './volumes.js';

// An instance's life on the simulated hypervisor: each task idempotent, as the driver contract
// asks (a task offered again leaves the hypervisor as one run would).

export function createInstance(host: SimulatedHost, p: AgentTaskParams<'instance.create'>) {
  const existing = host.state.instances[p.instance_id];
  if (existing) return created(existing);
  if (!host.fits(p))
    throw new DriverFailure(
      'INSUFFICIENT_CAPACITY',
      'the hypervisor lacks the capacity for this instance',
      false,
    );
  const disk = p.from_backup ? backupContent(host, p.from_backup) : `image ${p.image}\n`;
  const power_state = p.start ? 'running' : 'stopped';
  host.state.instances[p.instance_id] = {
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
    ...userDataOf(p),
    disk_generation: 1,
    last_rebuild_id: null,
    disk,
    boots: 0,
    snapshots: {},
    restores: {},
    ...(p.firewall && { firewall: p.firewall }),
    ...(p.ceiling && { ceiling: p.ceiling }),
  };
  host.record(
    'instance.create',
    p.instance_id,
    p.from_backup ? `${power_state} from backup ${p.from_backup.backup_id}` : power_state,
  );
  return created(host.state.instances[p.instance_id]!);
}

const created = (instance: SimulatedInstance) => ({
  power_state: instance.power_state,
  ...(instance.firewall && { firewall_revision: instance.firewall.revision }),
  ...(instance.ceiling && { ceiling: instance.ceiling }),
});

export function rebuildInstance(host: SimulatedHost, p: AgentTaskParams<'instance.rebuild'>) {
  const instance = host.existing(p.instance_id);
  if (instance.last_rebuild_id !== p.rebuild_id) {
    delete instance.user_data;
    Object.assign(instance, {
      ...userDataOf(p),
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
    delete instance.booted_ceiling;
    host.record('instance.rebuild', p.instance_id, p.image);
  }
  return { power_state: instance.power_state };
}

/** The user-data the guest was given, as a test compares it with the panel's envelope: never its content. */
const userDataOf = (p: Pick<AgentTaskParams<'instance.create'>, 'user_data'>) =>
  p.user_data ? { user_data: { kind: p.user_data.kind, sha256: sha256(p.user_data.content) } } : {};

export function setPassword(host: SimulatedHost, p: AgentTaskParams<'instance.set_password'>) {
  const instance = host.existing(p.instance_id);
  const hash = sha256(p.root_password);
  if (instance.root_password_sha256 === hash) return { changed: false };
  instance.root_password_sha256 = hash;
  host.record('instance.set_password', p.instance_id, 'password set');
  return { changed: true };
}

export function powerInstance(host: SimulatedHost, p: AgentTaskParams<'instance.power'>) {
  const instance = host.existing(p.instance_id);
  const target = p.action === 'start' || p.action === 'restart' ? 'running' : 'stopped';
  // Applying the same action twice changes nothing the second time (idempotent), except restart.
  if (instance.power_state !== target || p.action === 'restart') {
    instance.power_state = target;
    if (target === 'running') {
      delete instance.booted_ceiling;
      const disk = diskOf(instance);
      disk.disk += `boot ${++disk.boots}\n`;
    }
    host.record('instance.power', p.instance_id, p.action);
  }
  return { power_state: instance.power_state, ...reportedRoom(instance, instance.power_state) };
}

export function deleteInstance(host: SimulatedHost, p: AgentTaskParams<'instance.delete'>) {
  if (!host.state.instances[p.instance_id]) return { deleted: false };
  delete host.state.instances[p.instance_id];
  releaseVolumesOf(host, p.instance_id);
  dropIsosOf(host, p.instance_id);
  host.record('instance.delete', p.instance_id, 'deleted');
  return { deleted: true };
}

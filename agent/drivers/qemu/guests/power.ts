import { rmSync } from 'node:fs';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { reportedRoom } from '../../../../domain/instances/hot-resize.js';
import { removeBackendDisks } from '../disks/backend-disks.js';
import { releaseVolumesOf } from '../disks/volumes.js';
import { settlePendingReset } from '../password/pending-password.js';
import { killGuest, stopGuest } from './guest-process.js';
import type { QemuGuests } from './guests.js';

/** Power: the guest's process is its power state; a stop presses the ACPI button first. */
export async function powerGuest(guests: QemuGuests, p: AgentTaskParams<'instance.power'>) {
  const instance = guests.existing(p.instance_id);
  const stopTimeout = guests.config.AGENT_QEMU_STOP_TIMEOUT_MS;
  settlePendingReset(instance.dir);
  switch (p.action) {
    case 'start':
      await guests.boot(p.instance_id, instance);
      break;
    case 'stop':
      await stopGuest(instance.dir, stopTimeout);
      break;
    case 'kill':
      await killGuest(instance.dir);
      break;
    case 'restart':
      await stopGuest(instance.dir, stopTimeout);
      await guests.boot(p.instance_id, instance);
      break;
  }
  const power_state = await guests.powerState(instance.dir);
  return { power_state, ...reportedRoom(instance, power_state) };
}

export async function deleteGuest(guests: QemuGuests, p: AgentTaskParams<'instance.delete'>) {
  const instance = guests.state.instances[p.instance_id];
  if (!instance) return { deleted: false };
  await killGuest(instance.dir);
  await guests.bridgedNetwork?.unwire(p.instance_id);
  removeBackendDisks(instance);
  rmSync(instance.dir, { recursive: true, force: true });
  delete guests.state.instances[p.instance_id];
  releaseVolumesOf(guests, p.instance_id);
  guests.save();
  return { deleted: true };
}

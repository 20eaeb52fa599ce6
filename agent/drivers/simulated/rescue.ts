import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { reportedRoom } from '../../../domain/instances/hot-resize.js';
import type { SimulatedHost } from './host.js';

/**
 * Rescue mode on the simulated hypervisor: the guest restarted into the rescue system (`rescue`
 * true; its disk untouched, no boot of its own written on it) or back onto its disk (a boot
 * written, as a start writes one). Already so: nothing changes.
 */
export function changeRescue(
  host: SimulatedHost,
  p: AgentTaskParams<'rescue.enter'> | AgentTaskParams<'rescue.exit'>,
  enter: boolean,
) {
  const instance = host.existing(p.instance_id);
  if ((instance.rescue ?? false) === enter && instance.power_state === 'running')
    return { power_state: 'running' as const, ...reportedRoom(instance, 'running') };
  instance.rescue = enter;
  instance.power_state = 'running';
  // Either way the hypervisor boots a kernel of its own choosing: the guest has all its room.
  delete instance.booted_ceiling;
  if (!enter && instance.disk !== undefined) {
    instance.boots = (instance.boots ?? 0) + 1;
    instance.disk += `boot ${instance.boots}\n`;
  }
  host.record(enter ? 'rescue.enter' : 'rescue.exit', p.instance_id, enter ? 'rescue system' : 'own disk');
  return { power_state: instance.power_state, ...reportedRoom(instance, instance.power_state) };
}

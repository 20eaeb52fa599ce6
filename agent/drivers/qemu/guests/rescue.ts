import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { reportedRoom } from '../../../../domain/instances/hot-resize.js';
import { DriverFailure } from '../../driver.js';
import { guestAlive, killGuest } from './guest-process.js';
import type { QemuGuests } from './guests.js';

/**
 * Rescue mode: the guest ended at once and started with its image's rescue line (the same kernel
 * and initramfs, its disk attached), or with its own line again. Already so and running: nothing.
 * An image without a rescue system cannot enter it.
 */
export async function changeGuestRescue(
  guests: QemuGuests,
  p: AgentTaskParams<'rescue.enter'> | AgentTaskParams<'rescue.exit'>,
  enter: boolean,
) {
  const instance = guests.existing(p.instance_id);
  const image = guests.images.get(instance.image);
  if (enter && (image.boot !== 'kernel' || !image.rescueCmdline))
    throw new DriverFailure('NOT_SUPPORTED', `the image ${instance.image} has no rescue system`, false);
  if ((instance.rescue ?? false) !== enter || !guestAlive(instance.dir)) {
    instance.rescue = enter;
    guests.save();
    await killGuest(instance.dir);
    await guests.boot(p.instance_id, instance);
  }
  const power_state = await guests.powerState(instance.dir);
  return { power_state, ...reportedRoom(instance, power_state) };
}

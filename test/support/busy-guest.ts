import { startBusyLoop } from './busy-loop.js';
import type { QemuHost } from './qemu-hosts.js';

/**
 * Makes a busybox guest dirty its memory as fast as it can (a 32 MiB working set by default). Under
 * TCG the loop dirties far more than a few MiB/s; a live move capped below that never converges by
 * pre-copy.
 */
export async function dirtyMemory(host: QemuHost, instanceId: string, mib = 32): Promise<void> {
  const dir = host.state().instances[instanceId]!.dir;
  await startBusyLoop(dir, () => host.console(instanceId), { mib });
}

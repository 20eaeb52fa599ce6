import type { ConsoleEnd } from '../../console/relay.js';
import type { SimulatedHost } from './host.js';

/**
 * The simulated instance's serial console: a banner naming the instance, then every byte typed is
 * echoed back, as a terminal's line discipline would, until the relay ends.
 */
export function simulatedConsole(host: SimulatedHost, instanceId: string): ConsoleEnd {
  const instance = host.existing(instanceId);
  let output: ((data: Buffer) => void) | undefined;
  let ended: (() => void) | undefined;
  let open = true;
  return {
    write(data) {
      if (open) output?.(data);
    },
    listen(onData, onEnd) {
      output = onData;
      ended = onEnd;
      onData(Buffer.from(`simulated console of ${instance.hostname}\r\n`));
    },
    close() {
      if (!open) return;
      open = false;
      ended?.();
    },
  };
}

import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { ConsoleEnd } from '../../../console/relay.js';
import { DriverFailure } from '../../driver.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';

/**
 * The guest's serial console as its QEMU serves it (a socket chardev that also writes console.log):
 * what is typed goes to the guest's ttyS0, what it prints comes back. QEMU takes one client at a
 * time: a second session waits for the first to end.
 */
export async function guestConsole(guests: QemuGuests, instanceId: string): Promise<ConsoleEnd> {
  const { dir } = guests.existing(instanceId);
  const { consoleSocket } = guestFiles(dir);
  if (!guestAlive(dir))
    throw new DriverFailure('GUEST_NOT_RUNNING', 'the guest is not running: its console is dark', false);
  if (!existsSync(consoleSocket))
    throw new DriverFailure(
      'NOT_SUPPORTED',
      'the guest was started before its console could be relayed; restart it first',
      false,
    );
  const socket = connect(consoleSocket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error) =>
      reject(new DriverFailure('CONSOLE_UNAVAILABLE', `the console did not answer: ${error.message}`, true)),
    );
  });
  return {
    write: (data) => void socket.write(data),
    listen(onData, onEnd) {
      socket.on('data', onData);
      socket.once('close', onEnd);
      socket.on('error', () => socket.destroy());
    },
    close: () => void socket.end(),
  };
}

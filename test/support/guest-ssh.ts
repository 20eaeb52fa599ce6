import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { eventually } from './eventually.js';

const run = promisify(execFile);

/** The SSH options of a login to a guest the test just made: its own key, no prompt, no known hosts. */
const sshArgs = (privateKey: string, port: string, user: string) => [
  ...['-i', privateKey, '-p', port, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5'],
  ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR'],
  '-o',
  'IdentitiesOnly=yes',
  `${user}@127.0.0.1`,
];

/**
 * Runs `command` in the guest in `dir` as `user` with `privateKey`, over the port the agent
 * forwards from the loopback, once its sshd takes the key and cloud-init has finished (the
 * user-data's scripts run in its last stage). A refused login is tried again until `timeoutMs`.
 */
export async function inGuest(
  dir: string,
  privateKey: string,
  user: string,
  command: string,
  timeoutMs: number,
): Promise<string> {
  const attempt = async () => {
    const port = readFileSync(guestFiles(dir).sshPort, 'utf8').trim();
    const { stdout } = await run('ssh', [
      ...sshArgs(privateKey, port, user),
      `cloud-init status --wait >/dev/null; ${command}`,
    ]);
    return stdout;
  };
  const later = () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2000));
  return eventually(() => attempt().catch(later), timeoutMs, 'an SSH login').catch((error: Error) => {
    const console = readFileSync(guestFiles(dir).console, 'utf8').slice(-3000);
    throw new Error(`${error.message}; console:\n${console}`);
  });
}

/** Whether the guest's sshd takes `privateKey` for `user` now: one attempt, the refusal is the answer. */
export async function guestTakesKey(dir: string, privateKey: string, user: string): Promise<boolean> {
  const port = readFileSync(guestFiles(dir).sshPort, 'utf8').trim();
  return run('ssh', [...sshArgs(privateKey, port, user), 'true']).then(
    () => true,
    () => false,
  );
}

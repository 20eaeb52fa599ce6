import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { DriverFailure } from '../../driver.js';
import { guestFiles, sleep } from './guest-process.js';

/** What the guest answered: `ok <what>` or `error <why>`. */
export interface GuestAnswer {
  readonly ok: boolean;
  readonly detail: string;
}

/** The guest did not answer: not booted far enough yet, or not running at all. */
export class GuestChannelSilent extends Error {}

/**
 * One request to the guest over its virtio-serial port (the guest image's /bin/guest-channel):
 * `<id> <verb> <user> <argument>`, one line, answered by the line starting with the same id (an
 * answer to an earlier, abandoned request is passed over). QEMU holds what is written until the
 * guest opens its port, so a guest still booting answers once it is up; each attempt waits
 * `attemptMs`, and attempts go on until `timeoutMs`. Nothing sent or received is logged: the
 * argument may be a password hash, or (`check-password`) a password.
 */
export async function askGuest(
  dir: string,
  request: { verb: string; user: string; argument: string },
  options: { timeoutMs: number; attemptMs?: number; signal?: AbortSignal },
): Promise<GuestAnswer> {
  if (/\s/.test(`${request.verb}${request.user}${request.argument}`))
    throw new Error('a guest request’s words hold no whitespace');
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const attemptMs = Math.min(options.attemptMs ?? 10_000, Math.max(0, deadline - Date.now()));
    const answer = await attempt(guestFiles(dir).channel, request, attemptMs).catch(() => undefined);
    if (answer) return answer;
    if (Date.now() >= deadline) throw new GuestChannelSilent('the guest did not answer on its channel');
    await sleep(500);
  }
}

function attempt(
  path: string,
  request: { verb: string; user: string; argument: string },
  timeoutMs: number,
): Promise<GuestAnswer | undefined> {
  const id = randomBytes(8).toString('hex');
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    const done = (answer: GuestAnswer | undefined, error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${id} ${request.verb} ${request.user} ${request.argument}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line.startsWith(`${id} `)) continue;
        const [status, ...rest] = line.slice(id.length + 1).split(' ');
        done({ ok: status === 'ok', detail: rest.join(' ') });
        return;
      }
    });
    socket.once('error', (error) => done(undefined, error));
    socket.once('close', () => done(undefined));
  });
}

/**
 * How long a task waits for a running guest to answer on its channel: a guest just started
 * answers once booted, which under TCG takes seconds.
 */
const TASK_WAIT_MS = 60_000;

/**
 * A task's request to a running guest: waited for as long as a boot takes, a guest that stays
 * silent failing the task with `GUEST_CHANNEL_SILENT` (retried: it may still be booting).
 */
export function askGuestForTask(
  dir: string,
  request: { verb: string; user: string; argument: string },
  signal: AbortSignal,
): Promise<GuestAnswer> {
  return askGuest(dir, request, { timeoutMs: TASK_WAIT_MS, signal }).catch((error: Error) => {
    if (error instanceof GuestChannelSilent)
      throw new DriverFailure('GUEST_CHANNEL_SILENT', error.message, true);
    throw error;
  });
}

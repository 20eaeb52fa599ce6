/**
 * Load from `wrk` (Debian's package: `apt-get install -y wrk`; macOS: `brew install wrk`), an
 * external generator in C: it takes no CPU time from the server's process and has no garbage
 * collector of its own to pause in the middle of a measurement. Peak requests/s come from its
 * closed loop; latency at a fixed rate from `paced.lua` (wrk2's method, see there), since wrk2
 * itself is not packaged.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, Target } from './load.js';

const PACED_SCRIPT = fileURLToPath(new URL('./paced.lua', import.meta.url));
/** One connection per thread is what lets paced.lua keep a schedule per connection. */
export const PACED_CONNECTIONS = 16;

/** The wrk on PATH, or undefined. */
export function findWrk(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'wrk');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

function run(wrk: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(wrk, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`wrk ${args.join(' ')} failed: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

const url = (target: Target) => `http://127.0.0.1:${target.port}${target.path}`;
const headerArgs = (target: Target) =>
  Object.entries(target.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);

/** wrk's closed loop: `connections` keep-alive connections on one thread, each sending as soon as it is answered. */
export async function wrkPeak(
  wrk: string,
  target: Target,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const out = await run(wrk, [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...headerArgs(target),
    url(target),
  ]);
  const done = /(\d+) requests in ([\d.]+)(m?s)/.exec(out);
  if (!done) throw new Error(`unexpected wrk output:\n${out}`);
  const requests = Number(done[1]);
  const seconds_ = Number(done[2]) / (done[3] === 'ms' ? 1000 : 1);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const percentile = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    if (!m) return Number.NaN;
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  return {
    requests,
    errors: non2xx + socketErrors,
    seconds: seconds_,
    rps: requests / seconds_,
    p50: percentile('50'),
    p99: percentile('99'),
  };
}

/** A fixed `rate` of requests/s over PACED_CONNECTIONS connections, coordinated omission counted (paced.lua). */
export async function wrkPaced(
  wrk: string,
  target: Target,
  rate: number,
  seconds: number,
): Promise<LoadResult> {
  const out = await run(wrk, [
    `-t${PACED_CONNECTIONS}`,
    `-c${PACED_CONNECTIONS}`,
    `-d${seconds}s`,
    '-s',
    PACED_SCRIPT,
    ...headerArgs(target),
    url(target),
    '--',
    String(rate / PACED_CONNECTIONS),
    String(PACED_CONNECTIONS),
  ]);
  const line = /^paced (\{.*\})$/m.exec(out);
  if (!line) throw new Error(`unexpected wrk output:\n${out}`);
  const r = JSON.parse(line[1]!) as {
    requests: number;
    errors: number;
    seconds: number;
    p50: number;
    p99: number;
  };
  return {
    requests: r.requests,
    errors: r.errors,
    seconds: r.seconds,
    rps: r.requests / r.seconds,
    p50: r.p50 / 1000,
    p99: r.p99 / 1000,
  };
}

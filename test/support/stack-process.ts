import { type ChildProcess, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A stack started as its user starts it (`npm start`, `npm run stack:prod`), and what it printed. */
export interface StackProcess {
  readonly child: ChildProcess;
  readonly output: string[];
}

/** A data folder of its own; PostgreSQL runs as the postgres user when tests run as root, so it must be able to enter. */
export function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cloudsvc-start-'));
  chmodSync(dir, 0o755);
  return dir;
}

/** The pid of the process running `entry` (say worker/main.ts) among the descendants of `pid`. */
export function descendantRunning(pid: number, entry: string): number | undefined {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const family = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows)
      if (family.has(row.ppid) && !family.has(row.pid)) {
        family.add(row.pid);
        grew = true;
      }
  }
  return rows.find((r) => family.has(r.pid) && r.args.includes(entry))?.pid;
}

/** The pid of the process listening on the loopback TCP `port` (`ss`, from iproute2). */
export function listeningPid(port: number): number | undefined {
  const line = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(line)?.[1];
  return pid ? Number(pid) : undefined;
}

/** Ctrl-C; resolves with what the stack printed once it is gone (npm itself exits at once on SIGINT). */
export async function stopStack(started: StackProcess): Promise<string> {
  const exited = new Promise<void>((r) => started.child.once('close', () => r()));
  process.kill(-started.child.pid!, 'SIGINT');
  await exited;
  return started.output.join('');
}

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { diesWithParent } from '../../platform/parent-death.js';
import { eventually } from './eventually.js';

/** A stack started as its user starts it (`npm start`, `npm run stack:prod`), and what it printed. */
export interface StackProcess {
  readonly child: ChildProcess;
  readonly output: string[];
  /** Its data folder (CLOUDSVC_DATA_DIR), in every one of its processes' environments. */
  readonly dataDir?: string;
}

/**
 * `npm <args>` as its user runs it, with the embedded database and Temporal of its own (never the
 * run's), in its own process group (so that `stopStack` can signal the group as a terminal's Ctrl-C
 * does); resolves with what it printed once its banner's last line is out. Nothing of it outlives
 * the test that started it: a start that fails is stopped before the failure is told, the test's
 * end stops what is still running (a failed assertion included), and npm is sent SIGTERM if this
 * process dies first.
 */
export async function startStackProcess(
  args: readonly string[],
  settings: Record<string, string>,
  timeoutMs: number,
): Promise<StackProcess & { banner: string; field(label: string): string }> {
  const output: string[] = [];
  const { DATABASE_URL: _external, TEMPORAL_ADDRESS: _cluster, ...env } = process.env;
  const npm = diesWithParent('npm', args);
  const child = spawn(npm.program, npm.args, {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...env, ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const started = {
    child,
    output,
    ...(settings.CLOUDSVC_DATA_DIR && { dataDir: settings.CLOUDSVC_DATA_DIR }),
  };
  endsWithTheTest(started);
  const banner = await eventually(
    () => {
      const all = output.join('');
      if (child.exitCode !== null) throw new Error(`npm ${args.join(' ')} exited: ${all}`);
      return all.includes('Ctrl-C stops everything') ? all : undefined;
    },
    timeoutMs,
    `npm ${args.join(' ')}`,
  ).catch(async (error: Error) => {
    await endStack(started);
    throw new Error(`${error.message}\n--- what it printed ---\n${output.join('')}`);
  });
  return {
    ...started,
    banner,
    /** The first word after a label of the banner (`Client key`, `API base URL`, …). */
    field: (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(banner)?.[1] ?? '',
  };
}

/** Inside a test, the stack is ended with it, whatever its outcome; a suite's hook ends its own. */
function endsWithTheTest(started: StackProcess): void {
  try {
    onTestFinished(() => endStack(started), 90_000);
  } catch {
    // Started outside a test (beforeAll): the suite's afterAll stops it.
  }
}

/** A data folder of its own; PostgreSQL runs as the postgres user when tests run as root, so it must be able to enter. */
export function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cloudsvc-start-'));
  chmodSync(dir, 0o755);
  return dir;
}

/** The processes descended from `pid`, each with its command line. */
export function descendants(pid: number): { pid: number; args: string }[] {
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
  return rows.filter((r) => r.pid !== pid && family.has(r.pid)).map(({ pid, args }) => ({ pid, args }));
}

/** The pid of the process running `entry` (say worker/main.ts) among the descendants of `pid`. */
export function descendantRunning(pid: number, entry: string): number | undefined {
  return descendants(pid).find((r) => r.args.includes(entry))?.pid;
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

/** Whether the process `pid` still runs (and is no zombie). */
export function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The processes whose environment names `dataDir` as theirs: a stack's, found even once they have
 * lost their parent (an npm that died without passing its signal on).
 */
export function processesOfDataFolder(dataDir: string): number[] {
  const mark = `\0CLOUDSVC_DATA_DIR=${dataDir}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return `\0${readFileSync(`/proc/${pid}/environ`, 'utf8')}`.includes(mark);
      } catch {
        return false;
      }
    });
}

/**
 * Ends a stack, whatever state it is in: Ctrl-C to its group, then, what is still running a minute
 * later (the embedded PostgreSQL runs in a group of its own; an orphan in none), SIGKILL. Nothing
 * once it has ended.
 */
export async function endStack(started: StackProcess): Promise<void> {
  const pid = started.child.pid!;
  const family = [
    ...new Set([
      pid,
      ...descendants(pid).map((d) => d.pid),
      ...(started.dataDir ? processesOfDataFolder(started.dataDir) : []),
    ]),
  ].filter((p) => p !== process.pid);
  if (!family.some(running)) return;
  const closed =
    started.child.exitCode !== null && started.child.stdout!.closed
      ? Promise.resolve()
      : new Promise<void>((r) => started.child.once('close', () => r()));
  try {
    process.kill(-pid, 'SIGINT');
  } catch {
    // The group has ended: what is left runs in groups of its own, or none.
    for (const left of family.filter(running)) process.kill(left, 'SIGINT');
  }
  await Promise.race([closed, new Promise((r) => setTimeout(r, 60_000))]);
  await eventually(() => !family.some(running), 30_000, 'the stack to end').catch(() => {
    for (const left of family.filter(running)) process.kill(left, 'SIGKILL');
  });
}

/** The loopback TCP ports each of `pids` listens on (`ss`, from iproute2). */
export function listenersOf(pids: readonly number[]): { pid: number; port: number }[] {
  const wanted = new Set(pids);
  return execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => {
      // LISTEN, its queues, then the local address (`127.0.0.1:8080`, `[::1]:8080`, `*:8080`).
      const port = Number(line.trim().split(/\s+/)[3]?.split(':').pop());
      return [...line.matchAll(/pid=(\d+)/g)]
        .map((m) => Number(m[1]))
        .filter((pid) => wanted.has(pid))
        .map((pid) => ({ pid, port }));
    });
}

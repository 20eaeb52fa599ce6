import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_TYPE, SEARCH_ATTRIBUTES } from '../domain/search-attributes.js';
import { diesWithParent } from './parent-death.js';
import { waitForPort } from './ports.js';

/**
 * The Temporal CLI, from scripts/temporal-cli.sh (which may build it once, taking minutes). What
 * the script says of its work (a build, a wait for another's) goes to `progress` line by line.
 */
export async function temporalCli(progress: (line: string) => void = () => {}): Promise<string> {
  const script = fileURLToPath(new URL('../scripts/temporal-cli.sh', import.meta.url));
  const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let pending = '';
  let said = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    said += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) progress(line);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (pending) progress(pending);
  if (code !== 0) throw new Error(`scripts/temporal-cli.sh failed (exit code ${code}): ${said.trim()}`);
  const path = stdout.trim().split('\n').pop();
  if (!path) throw new Error('scripts/temporal-cli.sh printed no path');
  return path;
}

/**
 * Server settings for step latency. The dev server has one history shard, and its transfer queue
 * is polled at most 20 times a second by default: every workflow step (a task handed to a worker)
 * then waits up to 50 ms. Eager activity execution hands an activity to the worker in the reply
 * to the workflow task that scheduled it. Together: ~100 ms → ~15 ms for a one-activity workflow.
 * A production cluster wants the same two settings (docker/temporal-dynamic-config.yaml).
 */
export const LOW_LATENCY_DYNAMIC_CONFIG = {
  'history.transferProcessorMaxPollRPS': 1000,
  'system.enableActivityEagerExecution': true,
} as const;

export interface DevServerOptions {
  readonly port: number;
  /** Web UI port; the UI is off without one. */
  readonly uiPort?: number;
  /** Its HTTP API's and its /metrics' ports; free ones of the system's choosing without them. */
  readonly httpPort?: number;
  readonly metricsPort?: number;
  /** SQLite file that keeps workflows across restarts; in memory without one. */
  readonly dbFile?: string;
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  readonly stdio?: 'ignore' | 'inherit';
  /** What obtaining the Temporal CLI says (temporalCli). */
  readonly progress?: (line: string) => void;
}

export interface DevServer {
  readonly address: string;
  readonly uiUrl: string | undefined;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `temporal server start-dev` on loopback and waits until its frontend answers. */
export async function startTemporalDevServer(options: DevServerOptions): Promise<DevServer> {
  const cli = await temporalCli(options.progress);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port)];
  args.push('--log-level', options.logLevel ?? 'error');
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.httpPort) args.push('--http-port', String(options.httpPort));
  if (options.metricsPort) args.push('--metrics-port', String(options.metricsPort));
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  for (const [key, value] of Object.entries(LOW_LATENCY_DYNAMIC_CONFIG))
    args.push('--dynamic-config-value', `${key}=${value}`);
  for (const name of Object.values(SEARCH_ATTRIBUTES))
    args.push('--search-attribute', `${name}=${SEARCH_ATTRIBUTE_TYPE}`);

  // It stops with whoever started it, even one killed outright (a test run, npm start).
  const tied = diesWithParent(cli, args);
  const child = spawn(tied.program, tied.args, { stdio: options.stdio ?? 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const early = exited.then(() => {
    throw new Error(`temporal server start-dev exited early (exit code ${child.exitCode})`);
  });
  await Promise.race([waitForPort(options.port, 60_000, 'Temporal dev server'), early]);
  early.catch(() => {});
  await waitForNamespace(`127.0.0.1:${options.port}`, 'default');

  return {
    address: `127.0.0.1:${options.port}`,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The frontend port opens a moment before the default namespace can take workflows. */
async function waitForNamespace(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    await connection.close();
  }
}

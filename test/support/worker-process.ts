import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../platform/config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly output: string[];
}

/** `npm run worker` as its own process, on the stack's database, Temporal and task queue. */
export function startWorkerProcess(config: Config, env: Record<string, string> = {}): WorkerProcess {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: config.DATABASE_URL,
      TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: config.TEMPORAL_TASK_QUEUE,
      SECRETS_KEY: config.SECRETS_KEY,
      LOG_LEVEL: 'info',
      // Any free port for its probes: files run side by side, each may have a worker process.
      WORKER_HTTP_PORT: '0',
      WORKER_SDK_METRICS_ADDRESS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  return { child, output };
}

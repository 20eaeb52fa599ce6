import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArmedFault, FaultsFileEntry, SimulatedState } from '../../../agent/drivers/simulated/state.js';
import { simulatedFaultsPath, simulatedStatePath } from '../../../agent/drivers/simulated/state.js';
import { StateFile } from '../../../agent/state-file.js';
import type { AgentTaskType } from '../../../domain/agent-tasks.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface AgentProcess {
  readonly stateDir: string;
  readonly output: string[];
  process: ChildProcess;
  exited: Promise<number | null>;
  /** The simulated hypervisor's state as the agent last wrote it. */
  hypervisor(): SimulatedState;
  /** Arms a fault in the running agent, through its faults file: it hits the next task(s) of `type`. */
  armFault(type: AgentTaskType, fault: ArmedFault): void;
  restart(env?: Record<string, string>): void;
  stop(): Promise<void>;
}

/** Runs the reference agent (`agent/main.ts`) as its own process, as `npm run agent` does. */
export function startAgentProcess(env: Record<string, string>): AgentProcess {
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-'));
  const output: string[] = [];
  const statePath = simulatedStatePath(stateDir);
  const faults = new StateFile<FaultsFileEntry[]>(simulatedFaultsPath(stateDir), () => []);
  const launch = (extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'agent/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        AGENT_STATE_DIR: stateDir,
        AGENT_METRICS_INTERVAL_MS: '60000',
        LOG_LEVEL: 'info',
        ...env,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited };
  };
  let current = launch();
  const agent: AgentProcess = {
    stateDir,
    output,
    process: current.child,
    exited: current.exited,
    hypervisor: () => JSON.parse(readFileSync(statePath, 'utf8')) as SimulatedState,
    armFault(type, fault) {
      faults.write([...faults.read(), { id: randomUUID(), type, ...fault }]);
    },
    restart(extra) {
      current = launch(extra);
      agent.process = current.child;
      agent.exited = current.exited;
    },
    async stop() {
      if (agent.process.exitCode === null && agent.process.signalCode === null) {
        agent.process.kill('SIGKILL');
        await agent.exited;
      }
    },
  };
  return agent;
}

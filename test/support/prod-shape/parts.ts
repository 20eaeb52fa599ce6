import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackPorts } from '../../../platform/stack-ports.js';
import { eventually } from '../eventually.js';
import { descendants, listeningPid } from '../stack-process.js';

/** The processes of the shape a fault can hit, as `npm run stack:prod` names them. */
export type Part =
  | 'api-1'
  | 'api-2'
  | 'worker-1'
  | 'worker-2'
  | 'temporal'
  | 'haproxy'
  | 'agent'
  | `agent-${number}`;

/**
 * The shape's processes, found as an operator would: by the port each listens on, and the agents
 * (which listen on nothing) by the state folder in their environment.
 */
export function shapeParts(options: {
  readonly stackPid: number;
  readonly folder: string;
  readonly ports: StackPorts;
  readonly agents: readonly Part[];
}) {
  const { ports, folder } = options;
  const listening: Partial<Record<Part, number>> = {
    'api-1': ports.replicaApis[0],
    'api-2': ports.replicaApis[1],
    'worker-1': ports.replicaWorkers[0],
    'worker-2': ports.replicaWorkers[1],
    temporal: ports.temporal,
    haproxy: ports.api,
  };
  const agentPid = (name: string) =>
    descendants(options.stackPid).find(
      (p) =>
        p.args.includes('agent/main.ts') &&
        environment(p.pid).includes(`AGENT_STATE_DIR=${join(folder, name)}`),
    )?.pid;
  const pid = (part: Part) => (part.startsWith('agent') ? agentPid(part) : listeningPid(listening[part]!));
  return {
    pid,
    /** The part whose process has this pid, if any. */
    partOf: (processId: number) =>
      [...(Object.keys(listening) as Part[]), ...options.agents].find((part) => pid(part) === processId),
    /** kill -9; answers the pid killed. */
    kill(part: Part): number {
      const found = pid(part);
      if (!found) throw new Error(`${part} is not running`);
      process.kill(found, 'SIGKILL');
      return found;
    },
    /** Resolves once the stack has started `part` again in place of the process `killed`, and it is ready. */
    async back(part: Part, killed: number, timeoutMs = 90_000): Promise<void> {
      await eventually(
        async () => {
          const now = pid(part);
          if (!now || now === killed) return false;
          const port = listening[part];
          if (!port || part === 'temporal') return true;
          return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200;
        },
        timeoutMs,
        `${part} to run again`,
      );
    },
  };
}

/** A process's environment, one `NAME=value` per line ('' once it is gone). */
function environment(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').replaceAll('\0', '\n');
  } catch {
    return '';
  }
}

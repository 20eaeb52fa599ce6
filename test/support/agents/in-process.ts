import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../agent/agent.js';
import { type AgentConfig, type FaultMode, loadAgentConfig } from '../../../agent/config.js';
import { SimulatedDriver } from '../../../agent/drivers/simulated/driver.js';
import type { ArmedFault, SimulatedState } from '../../../agent/drivers/simulated/state.js';
import type { AgentTaskType } from '../../../domain/agent-tasks.js';
import { createLogger } from '../../../platform/logger.js';

export interface InProcessAgent {
  readonly stateDir: string;
  readonly config: AgentConfig;
  readonly driver: SimulatedDriver;
  /** The agent's log lines (JSON), as a process would have printed them. */
  readonly output: string[];
  /** Whether `run()` is still going: false once the agent stopped or gave up. */
  readonly running: boolean;
  /** Settles when the agent ends: undefined when stopped, the reason when it gave up (a refused credential). */
  readonly finished: Promise<Error | undefined>;
  /** The simulated hypervisor: instances, applied changes, faults. */
  hypervisor(): SimulatedState;
  /** Arms a fault for the next task(s) of `type`; crash modes need a process (they SIGKILL it). */
  armFault(type: AgentTaskType, fault: ArmedFault): void;
  stop(): Promise<void>;
}

/** Crash modes kill the process they run in, which here is the test's own. */
const CRASHES: readonly FaultMode[] = ['crash-before', 'crash-after'];

function refuseCrash(mode: FaultMode): void {
  if (CRASHES.includes(mode))
    throw new Error(`fault mode ${mode} needs an agent process (startAgentProcess)`);
}

/**
 * The real `Agent` with the simulated driver, running inside the test process: no process start,
 * and the driver's state at hand. `env` is the agent's configuration as `npm run agent` reads it.
 * For crashes, a silenced (stopped) agent or exit codes, use `startAgentProcess`.
 */
export function startInProcessAgent(env: Record<string, string>): InProcessAgent {
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-'));
  const config = loadAgentConfig({
    AGENT_STATE_DIR: stateDir,
    AGENT_METRICS_INTERVAL_MS: '60000',
    LOG_LEVEL: 'info',
    ...env,
  });
  for (const fault of Object.values(config.AGENT_SIM_FAULTS)) refuseCrash(fault.mode);

  const output: string[] = [];
  const logger = createLogger(config.LOG_LEVEL, { service: 'agent' }, (line) => output.push(line));
  const driver = new SimulatedDriver(config);
  const agent = new Agent(config, driver, logger);
  let running = true;
  const finished = agent
    .run()
    .then(
      () => undefined,
      (error: Error) => error,
    )
    .then((reason) => {
      running = false;
      return reason;
    });

  return {
    stateDir,
    config,
    driver,
    output,
    get running() {
      return running;
    },
    finished,
    hypervisor: () => driver.snapshot(),
    armFault(type, fault) {
      refuseCrash(fault.mode);
      driver.armFault(type, fault);
    },
    async stop() {
      agent.stop();
      await finished;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

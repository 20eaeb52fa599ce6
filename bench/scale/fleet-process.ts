/**
 * Many agents in one process, for the fleet the scale bench puts on one API: each is the reference
 * agent (agent/agent.ts) with its simulated driver (zero latency) and a state folder of its own, so
 * each enrolls, heartbeats, long-polls with its pollers and sends its samples as a lone agent
 * would. FLEET_FILE lists them (their enrollment tokens, state folders, and the instances their
 * simulated hypervisors hold); every FLEET_STATS_MS the process writes the times of its agents'
 * metrics calls since the last write to FLEET_STATS_FILE, so the bench reads what agents see.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent } from '../../agent/agent.js';
import { loadAgentConfig } from '../../agent/config.js';
import { SimulatedDriver } from '../../agent/drivers/simulated/driver.js';
import { type SimulatedState, simulatedStatePath } from '../../agent/drivers/simulated/state.js';
import { createLogger } from '../../platform/logger.js';

export interface FleetMember {
  readonly token: string;
  readonly stateDir: string;
  /** Instances the simulated hypervisor holds, running, by id. */
  readonly instances: readonly string[];
  /** AGENT_CONCURRENCY, where not the default. */
  readonly concurrency?: number;
}

const members = JSON.parse(readFileSync(process.env.FLEET_FILE!, 'utf8')) as FleetMember[];
const statsFile = process.env.FLEET_STATS_FILE!;
const logger = createLogger(process.env.LOG_LEVEL === 'debug' ? 'debug' : 'warn', { service: 'fleet' });

/** The simulated hypervisor as the bench placed it: its instances already running. */
function seedState(member: FleetMember): void {
  const now = new Date().toISOString();
  const state: SimulatedState = { instances: {}, applied: [], faults_fired: {}, armed_faults: [] };
  for (const id of member.instances)
    state.instances[id] = {
      hostname: `${id}.example.test`,
      cpu_cores: 1,
      memory_mb: 512,
      disk_mb: 2048,
      image: 'scale-debian-12',
      boot_order: ['disk'],
      ipv4: null,
      ipv6: null,
      power_state: 'running',
      created_at: now,
      timezone: 'UTC',
      root_password_sha256: '',
      ssh_keys: [],
      disk_generation: 1,
      last_rebuild_id: null,
    };
  writeFileSync(simulatedStatePath(member.stateDir), JSON.stringify(state));
}

// The metrics calls, timed as the agents see them.
const metricCalls: number[] = [];
const send = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (!url.endsWith('/api/cloudsvc/agent/metrics')) return send(input, init);
  const started = performance.now();
  const reply = await send(input, init);
  metricCalls.push(performance.now() - started);
  return reply;
};
setInterval(
  () => writeFileSync(statsFile, JSON.stringify({ metricCalls })),
  Number(process.env.FLEET_STATS_MS ?? 1000),
).unref();

const agents = members.map((member) => {
  seedState(member);
  const config = loadAgentConfig({
    ...process.env,
    AGENT_STATE_DIR: member.stateDir,
    AGENT_ENROLLMENT_TOKEN: member.token,
    AGENT_SIM_LATENCY_MS: '{"default":0}',
    ...(member.concurrency ? { AGENT_CONCURRENCY: String(member.concurrency) } : {}),
  });
  return new Agent(config, new SimulatedDriver(config), logger);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const agent of agents) agent.stop();
  });
await Promise.all(agents.map((agent) => agent.run()));
process.exit(0);

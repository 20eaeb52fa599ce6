import { insertUser } from '../../db/repositories/accounts/users.js';
import { insertHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { runningInstance } from '../bench-instance.js';
import { runEvacuation } from '../evacuations.js';
import type { BenchStack } from '../stack.js';

const INSTANCES = Number(process.env.BENCH_EVACUATION_INSTANCES ?? 100);
const TARGETS = Number(process.env.BENCH_EVACUATION_TARGETS ?? 5);
const PER_TARGET = Number(process.env.BENCH_EVACUATION_PER_TARGET ?? 2);
const DISK_GB = Number(process.env.BENCH_EVACUATION_DISK_GB ?? 2);
// 100 MB/s, the throughput the preflight's transfer estimate assumes (MIGRATION_TRANSFER_MB_PER_S).
const MS_PER_GB = Number(process.env.BENCH_EVACUATION_MS_PER_GB ?? 10_240);
const NODE = { cpuCores: 256, memoryMb: 1_048_576, diskMb: 4_000_000 };

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * 12. An evacuation of INSTANCES instances off one node to TARGETS targets, PER_TARGET moves into
 * each at once (the parallelism: TARGETS × PER_TARGET), each move's disk transfer taking
 * DISK_GB × MS_PER_GB on the simulated driver. Target: wall time within 10% of the ideal.
 */
export async function evacuationPart(stack: BenchStack): Promise<void> {
  const { db } = stack;
  const workflows = await stack.workflows();
  const parallel = TARGETS * PER_TARGET;
  const agentEnv = {
    AGENT_SIM_TRANSFER_MS_PER_GB: String(MS_PER_GB),
    AGENT_CAPACITY: JSON.stringify({
      cpu_cores: NODE.cpuCores,
      memory_mb: NODE.memoryMb,
      disk_mb: NODE.diskMb,
    }),
  };
  const node = async (name: string) => {
    const row = await insertHypervisor(db, {
      name,
      locationId: stack.location.id,
      ...NODE,
      capabilities: ['live_migration'],
      storageBackends: ['local'],
    });
    return { id: row.id, agent: await workflows.startAgent(row.id, name, agentEnv) };
  };
  const source = await node('bench-evacuated');
  const targets = [];
  for (let i = 0; i < TARGETS; i++) targets.push(await node(`bench-evacuation-target-${i + 1}`));
  const deps = workflows.deps({ MIGRATION_SOURCE_RETENTION_MS: 0 });
  const admin = await insertUser(db, {
    email: `bench-evacuation-${crypto.randomUUID()}@example.test`,
    name: 'Bench admin',
    isAdmin: true,
  });
  const poll = stack.pollDatabase('evacuation');
  try {
    for (let made = 0; made < INSTANCES; made += 10)
      await Promise.all(
        Array.from({ length: Math.min(10, INSTANCES - made) }, (_, i) =>
          runningInstance(deps, {
            name: `bench-evacuee-${made + i + 1}`,
            userId: stack.user.id,
            locationId: stack.location.id,
            hypervisorId: source.id,
            size: { cpu_cores: 1, memory_mb: 256, disk_mb: DISK_GB * 1024 },
          }),
        ),
      );
    const transferMs = DISK_GB * MS_PER_GB;
    const idealMs = (INSTANCES * transferMs) / parallel;
    const figures = await runEvacuation({
      deps,
      pollDb: poll.db,
      admin: { type: 'admin', userId: admin.id },
      hypervisorId: source.id,
      maxParallel: parallel,
      maxParallelPerTarget: PER_TARGET,
      limitMs: idealMs * 3 + 60_000,
    });
    const ratio = figures.wallMs / idealMs;
    const control = figures.moveMs.map((ms) => ms - transferMs);
    console.log(
      `evacuation (${INSTANCES} instances of ${DISK_GB} GB off one node to ${TARGETS} targets, ${parallel} at once, ` +
        `${PER_TARGET} per target, simulated transfer ${MS_PER_GB} ms/GB): ${figures.state}, ${figures.moved} moved; ` +
        `wall ${s(figures.wallMs)}, ideal ${s(idealMs)} (total transfer ${s(INSTANCES * transferMs)} / ${parallel}), ` +
        `${ratio.toFixed(3)}x (target <= 1.10: ${ratio <= 1.1 && figures.moved === INSTANCES ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  bounded by each move's control plane besides its ${s(transferMs)} transfer (p50 ${s(quantile(control, 0.5))}, ` +
        `p99 ${s(quantile(control, 0.99))}: ${((quantile(control, 0.5) / transferMs) * 100).toFixed(1)}% of a move) ` +
        `and the wait of a freed slot for its next move (p50 ${quantile(figures.refillMs, 0.5).toFixed(0)} ms, ` +
        `p99 ${quantile(figures.refillMs, 0.99).toFixed(0)} ms)`,
    );
    const slowest = [...figures.stateMs.entries()]
      .map(([state, times]) => ({ state, p50: quantile(times, 0.5) }))
      .sort((a, b) => b.p50 - a.p50)
      .slice(0, 6);
    console.log(`  states, p50 each: ${slowest.map((x) => `${x.state} ${x.p50.toFixed(0)} ms`).join(', ')}`);
  } finally {
    await poll.close();
    for (const n of [source, ...targets]) await stack.kill(n.agent);
  }
}

import { runningInstance } from '../bench-instance.js';
import { POLL_INTERVAL_MS, powerActionStages, runPowerActions, SETTLE_LIMIT_MS } from '../power-actions.js';
import type { BenchStack } from '../stack.js';

const POWER_ACTIONS = Number(process.env.BENCH_POWER_ACTIONS ?? 100);
/** Actions before the measured ones: connections, prepared statements and JIT, as the other parts warm up. */
const POWER_WARM_UP = 4;

/** 3. Power actions on one instance, provisioned on the agent's hypervisor through its workflow. */
export async function powerPart(stack: BenchStack): Promise<void> {
  const { db } = stack;
  const workflows = await stack.workflows();
  const placed = await runningInstance(workflows.deps(), {
    name: 'bench-power',
    userId: stack.user.id,
    locationId: stack.location.id,
    hypervisorId: workflows.hypervisorId,
    size: { cpu_cores: 2, memory_mb: 2048, disk_mb: 40960 },
    primaryIpv4: '203.0.113.6',
    image: 'debian-12',
  });

  const poll = stack.pollDatabase('power');
  const target = { apiUrl: stack.apiUrl, clientKey: stack.key, instanceId: placed.id, pollDb: poll.db };
  try {
    const warmUp = await runPowerActions(target, POWER_WARM_UP);
    const result = warmUp.abortedBecause ? warmUp : await runPowerActions(target, POWER_ACTIONS);
    const all = [...warmUp.actions, ...(result === warmUp ? [] : result.actions)];
    const measured = result === warmUp ? [] : result.actions;
    const failed = all.filter((a) => a.failure !== undefined);
    const settled = measured
      .filter((a) => a.failure === undefined)
      .map((a) => a.settledMs!)
      .sort((a, b) => a - b);
    const at = (q: number) =>
      settled[Math.min(settled.length - 1, Math.floor(q * settled.length))] ?? Number.NaN;
    const p50 = at(0.5);
    const p99 = at(0.99);
    const unsent = POWER_WARM_UP + POWER_ACTIONS - all.length;
    console.log(
      `power actions on one instance (${POWER_ACTIONS} alternating stop/start after ${POWER_WARM_UP} warm-up, zero-latency driver; ` +
        `settled = status stopped/running with no running operation, seen by polling the instance row every ${POLL_INTERVAL_MS} ms): ` +
        `p50 ${p50.toFixed(1)} ms (target <= 100: ${p50 <= 100 ? 'met' : 'NOT met'}), ` +
        `p99 ${p99.toFixed(1)} ms (target <= 300: ${p99 <= 300 ? 'met' : 'NOT met'}), ` +
        `max ${(settled.at(-1) ?? Number.NaN).toFixed(1)} ms, ` +
        `failures ${failed.length + unsent} (non-202 or not settled in ${SETTLE_LIMIT_MS / 1000} s, warm-up included; ` +
        `target 0: ${failed.length + unsent === 0 ? 'met' : 'NOT met'})`,
    );
    if (result.abortedBecause)
      console.log(`  stopped after ${all.length} actions (${unsent} not sent): ${result.abortedBecause}`);
    const reasons = new Map<string, number>();
    for (const { failure } of failed) reasons.set(failure!, (reasons.get(failure!) ?? 0) + 1);
    for (const [reason, count] of reasons) console.log(`  failed: ${reason} (${count}x)`);
    const accepted = measured
      .flatMap((a) => (a.acceptedMs === undefined ? [] : [a.acceptedMs]))
      .sort((a, b) => a - b);
    const stages = await powerActionStages(db, placed.id, measured);
    if (stages)
      console.log(
        `  request → 202 p50 ${accepted[Math.floor(accepted.length / 2)]!.toFixed(1)} ms; stages (median): ` +
          `request → operation begun ${stages.requestToBegun.toFixed(1)} ms, ` +
          `begun → task queued ${stages.begunToQueued.toFixed(1)} ms, ` +
          `queued → started ${stages.queuedToStarted.toFixed(1)} ms, ` +
          `started → finished ${stages.startedToFinished.toFixed(1)} ms, ` +
          `finished → settling begun ${stages.finishedToSettling.toFixed(1)} ms, ` +
          `settling begun → seen settled ${stages.settlingToSeen.toFixed(1)} ms`,
      );
  } finally {
    await poll.close();
  }
}

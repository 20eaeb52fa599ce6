import { POLL_INTERVAL_MS } from '../power-actions.js';
import {
  CREATE_SETTLE_LIMIT_MS,
  deleteCreated,
  provisioningStages,
  runCreates,
  seedProvisioning,
} from '../provisioning.js';
import type { BenchStack } from '../stack.js';

export const CREATES = Number(process.env.BENCH_CREATES ?? 50);
/** Creates before the measured ones, for the same reason as the power actions' warm-up. */
export const CREATE_WARM_UP = 4;

/** 4. Provisioning: creates through the API onto the agent's hypervisor, then their deletion. */
export async function provisionPart(stack: BenchStack): Promise<void> {
  const { db } = stack;
  await stack.workflows();
  await seedProvisioning(db, stack.location.id, CREATE_WARM_UP + CREATES);
  const poll = stack.pollDatabase('provision');
  const target = {
    apiUrl: stack.apiUrl,
    clientKey: stack.key,
    locationCode: stack.location.code,
    pollDb: poll.db,
  };
  try {
    const warmUp = await runCreates(target, CREATE_WARM_UP, 'bench-warm-up');
    const result = warmUp.abortedBecause ? warmUp : await runCreates(target, CREATES, 'bench-create');
    const all = [...warmUp.creates, ...(result === warmUp ? [] : result.creates)];
    const measured = result === warmUp ? [] : result.creates;
    const failed = all.filter((c) => c.failure !== undefined);
    const settled = measured
      .filter((c) => c.failure === undefined)
      .map((c) => c.settledMs!)
      .sort((a, b) => a - b);
    const at = (q: number) =>
      settled[Math.min(settled.length - 1, Math.floor(q * settled.length))] ?? Number.NaN;
    const p50 = at(0.5);
    const unsent = CREATE_WARM_UP + CREATES - all.length;
    console.log(
      `provisioning (${CREATES} creates one after another after ${CREATE_WARM_UP} warm-up, zero-latency driver; ` +
        `POST / to status running with no running operation, seen by polling the instance row every ${POLL_INTERVAL_MS} ms): ` +
        `p50 ${p50.toFixed(1)} ms (target <= 300: ${p50 <= 300 ? 'met' : 'NOT met'}), ` +
        `p99 ${at(0.99).toFixed(1)} ms, max ${(settled.at(-1) ?? Number.NaN).toFixed(1)} ms, ` +
        `failures ${failed.length + unsent} (non-202, not running, or not settled in ${CREATE_SETTLE_LIMIT_MS / 1000} s, warm-up included)`,
    );
    if (result.abortedBecause)
      console.log(`  stopped after ${all.length} creates (${unsent} not sent): ${result.abortedBecause}`);
    const reasons = new Map<string, number>();
    for (const { failure } of failed) reasons.set(failure!, (reasons.get(failure!) ?? 0) + 1);
    for (const [reason, count] of reasons) console.log(`  failed: ${reason} (${count}x)`);
    const accepted = measured
      .flatMap((c) => (c.acceptedMs === undefined ? [] : [c.acceptedMs]))
      .sort((a, b) => a - b);
    const stages = await provisioningStages(db, measured);
    if (stages)
      console.log(
        `  request → 202 p50 ${accepted[Math.floor(accepted.length / 2)]!.toFixed(1)} ms; stages (median): ` +
          `request → operation begun ${stages.requestToBegun.toFixed(1)} ms, ` +
          `begun → task queued ${stages.begunToQueued.toFixed(1)} ms, ` +
          `queued → picked up ${stages.queuedToStarted.toFixed(1)} ms, ` +
          `picked up → completed ${stages.startedToFinished.toFixed(1)} ms, ` +
          `completed → settling begun ${stages.finishedToSettling.toFixed(1)} ms, ` +
          `settling begun → seen settled ${stages.settlingToSeen.toFixed(1)} ms`,
      );
    const created = all.flatMap((c) => (c.instanceId === undefined ? [] : [c.instanceId]));
    const cleanup = await deleteCreated(target, created);
    console.log(`  deleted ${cleanup.deleted} of ${created.length} created instances through the API`);
    for (const why of cleanup.left) console.log(`  not deleted: ${why}`);
  } finally {
    await poll.close();
  }
}

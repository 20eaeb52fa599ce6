import { runDiskGrows } from '../disk-grows.js';
import type { BenchStack } from '../stack.js';
import { runVolumeAttaches } from '../volume-attaches.js';
import { failureVerdict, latencyVerdict, withApiRounds } from './api-rounds.js';

const STORAGE_ROUNDS = Number(process.env.BENCH_STORAGE ?? 100);

/** 9. A root disk grow and a volume attach on one instance each, request to applied on the agent. */
export async function storagePart(stack: BenchStack): Promise<void> {
  const times = await withApiRounds(stack, 'storage', STORAGE_ROUNDS, runDiskGrows);
  const failures = failureVerdict(times.failures);
  console.log(
    `root disk grows (${STORAGE_ROUNDS} rounds on one instance, zero-latency driver, request to applied on the ` +
      `agent, seen by polling the instance row every 2 ms): ${latencyVerdict(times.growMs, { p50: 150, p99: 400 })}; ` +
      failures.line,
  );
  for (const line of failures.details) console.log(line);
  const attaches = await withApiRounds(stack, 'volumes', STORAGE_ROUNDS, runVolumeAttaches);
  const attachFailures = failureVerdict(attaches.failures);
  console.log(
    `volume attaches (${STORAGE_ROUNDS} rounds on one instance, detached between rounds, zero-latency driver, ` +
      'request to applied on the agent, seen by polling the volume and instance rows every 2 ms): ' +
      `${latencyVerdict(attaches.attachMs, { p50: 150, p99: 400 })}; ${attachFailures.line}`,
  );
  for (const line of attachFailures.details) console.log(line);
}

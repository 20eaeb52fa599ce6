/**
 * The floor under the agent round trip: the same dev server, and a worker with the product
 * worker's settings, running a workflow whose one activity answers at once. What a workflow step
 * costs here before any agent, API or database is involved.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';

const TASK_QUEUE = 'bench-temporal-floor';

/** The workflow's file: TypeScript under tsx, JavaScript once built. */
function workflowsPath(): string {
  const ts = fileURLToPath(new URL('./workflow.ts', import.meta.url));
  return existsSync(ts) ? ts : fileURLToPath(new URL('./workflow.js', import.meta.url));
}

export interface TemporalFloor {
  /** One run of the floor's workflow: its step time on the workflow's own clock, ms. */
  run(): Promise<number>;
  close(): Promise<void>;
}

/** A worker of the floor's workflow on the server, running until closed. */
export async function startTemporalFloor(
  temporal: Client,
  address: string,
  namespace: string,
): Promise<TemporalFloor> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue: TASK_QUEUE,
    workflowBundle: { code },
    activities: { answer: async () => 0 },
  });
  const running = worker.run();
  return {
    run: async () =>
      (await temporal.workflow.execute('temporalFloor', {
        taskQueue: TASK_QUEUE,
        workflowId: `bench-temporal-floor-${randomUUID()}`,
      })) as number,
    close: async () => {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** The floor's workflows one after another: each one's step time (the workflow's own clock). */
export async function temporalFloor(
  temporal: Client,
  address: string,
  namespace: string,
  options: { runs: number; warmUp: number },
): Promise<number[]> {
  const floor = await startTemporalFloor(temporal, address, namespace);
  try {
    const trips: number[] = [];
    for (let i = 0; i < options.warmUp + options.runs; i++) {
      const trip = await floor.run();
      if (i >= options.warmUp) trips.push(trip);
    }
    return trips;
  } finally {
    await floor.close();
  }
}

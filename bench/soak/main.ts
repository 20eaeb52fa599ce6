/**
 * `npm run soak`: a bounded soak of the production shape (`npm run stack:prod`: two APIs behind
 * HAProxy, two workers, the Temporal server on PostgreSQL) with SOAK_HYPERVISORS (4) simulated
 * hypervisors. It orders SOAK_INSTANCES (200) instances through the Client API, then runs
 * SOAK_CLIENTS (16) clients for SOAK_MINUTES (10) minutes, each doing one operation after another
 * from a mix of reads, row writes, power actions, backups and an administrator's live migrations
 * (traffic.ts). It prints each operation's count, error rate, p50 and p99, and each process's
 * resident memory and TCP connections, and PostgreSQL's connections, at the start, every minute
 * and at the end (resources.ts): what grows is a leak. The shape keeps production timings, but for
 * the moved guest's source, kept one second.
 */

import { order, running } from '../../test/faults/operations.js';
import { type Part, type ProdShape, startProdShape } from '../../test/support/prod-shape/shape.js';
import { report, type Sample } from './report.js';
import { databaseConnections, processUse } from './resources.js';
import { Soak } from './traffic.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const INSTANCES = Number(process.env.SOAK_INSTANCES ?? 200);
const HYPERVISORS = Number(process.env.SOAK_HYPERVISORS ?? 4);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 16);
/** Room for every instance on any hypervisor with moves under way: the soak is about the panel. */
const CAPACITY = { cpu_cores: 512, memory_mb: 524_288, disk_mb: 20_000_000 };

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  say(`starting the production shape with ${HYPERVISORS} hypervisors…`);
  const shape = await startProdShape(
    {
      STACK_HYPERVISORS: String(HYPERVISORS),
      AGENT_CAPACITY: JSON.stringify(CAPACITY),
      INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '100000',
      SSH_KEYS_MAX_PER_USER: '10000',
      MAX_BACKUPS_PER_INSTANCE: '1000',
      // A moved guest's source is kept a second, not production's window: a migration is timed
      // to CLEANED_UP, when its instance is free for the next operation.
      MIGRATION_SOURCE_RETENTION_MS: '1000',
      // The clients' migrations land on a few hosts at random: the soak measures them under load,
      // not the limit of moves out of one host, which would refuse some (MIGRATION_SOURCE_BUSY).
      MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR: '64',
    },
    { quickTiming: false },
  );
  try {
    for (const h of shape.hypervisors)
      await shape.application.PATCH('/hypervisors/{hypervisor}', {
        params: { path: { hypervisor: h.id } },
        body: CAPACITY,
      });
    say(`ordering ${INSTANCES} instances…`);
    const instances = await orderInstances(shape);
    const parts = (): Record<string, number | undefined> =>
      Object.fromEntries(
        (['api-1', 'api-2', 'worker-1', 'worker-2', 'temporal', 'haproxy', ...shape.agents] as Part[]).map(
          (part) => [part, shape.pid(part)],
        ),
      );
    const samples: Sample[] = [{ use: processUse(parts()), db: await databaseConnections(shape.db) }];

    say(`running ${CLIENTS} clients for ${MINUTES} min…`);
    const soak = new Soak(shape, instances);
    const started = Date.now();
    const clients = soak.run(CLIENTS);
    for (let minute = 1; minute <= MINUTES; minute++) {
      await new Promise((r) => setTimeout(r, 60_000));
      samples.push({ use: processUse(parts()), db: await databaseConnections(shape.db) });
      say(
        `  minute ${minute}: ${[...soak.tallies.values()].reduce((n, t) => n + t.ms.length, 0)} operations done`,
      );
    }
    soak.stop();
    await clients;
    const seconds = (Date.now() - started) / 1000;
    // Settled: what is still held once the traffic is gone is what would pile up.
    await new Promise((r) => setTimeout(r, 10_000));
    samples.push({ use: processUse(parts()), db: await databaseConnections(shape.db) });

    say(
      report(
        soak.tallies,
        { seconds, instances: INSTANCES, hypervisors: HYPERVISORS, clients: CLIENTS },
        samples,
      ),
    );
  } finally {
    await shape.stop();
  }
}

/** The soak's instances, ordered ten at a time, once every one runs. */
async function orderInstances(shape: ProdShape): Promise<string[]> {
  const instances: string[] = [];
  for (let i = 0; i < INSTANCES; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, INSTANCES - i) }, (_, j) => order(shape, `soak-${i + j}`)),
    );
    await Promise.all(batch.map((id) => running(shape, id)));
    instances.push(...batch);
  }
  return instances;
}

main().catch((error: unknown) => {
  say(`the soak failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
});

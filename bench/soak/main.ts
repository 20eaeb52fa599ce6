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
import { quantiles } from '../backups.js';
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
    const samples = [{ at: 0, use: processUse(parts()), db: await databaseConnections(shape.db) }];

    say(`running ${CLIENTS} clients for ${MINUTES} min…`);
    const soak = new Soak(shape, instances);
    const started = Date.now();
    const clients = soak.run(CLIENTS);
    for (let minute = 1; minute <= MINUTES; minute++) {
      await new Promise((r) => setTimeout(r, 60_000));
      samples.push({ at: minute, use: processUse(parts()), db: await databaseConnections(shape.db) });
      say(
        `  minute ${minute}: ${[...soak.tallies.values()].reduce((n, t) => n + t.ms.length, 0)} operations done`,
      );
    }
    soak.stop();
    await clients;
    const seconds = (Date.now() - started) / 1000;
    // Settled: what is still held once the traffic is gone is what would pile up.
    await new Promise((r) => setTimeout(r, 10_000));
    samples.push({ at: MINUTES + 1, use: processUse(parts()), db: await databaseConnections(shape.db) });

    say(report(soak, seconds, samples));
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

type Sample = { at: number; use: ReturnType<typeof processUse>; db: Record<string, number> };

function report(soak: Soak, seconds: number, samples: Sample[]): string {
  const rows = [...soak.tallies].map(([name, t]) => {
    const { p50, p99 } = quantiles(t.ms);
    const count = t.ms.length + t.failures.length;
    return [name, String(count), String(t.failures.length), pct(t.failures.length, count), ms(p50), ms(p99)];
  });
  const total = [...soak.tallies.values()].reduce((n, t) => n + t.ms.length + t.failures.length, 0);
  const failed = [...soak.tallies.values()].reduce((n, t) => n + t.failures.length, 0);
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const processes = first.use.map((start, i) => {
    const end = last.use[i]!;
    const trend = samples.map((s) => s.use[i]!.rssMb).join(' ');
    return [
      start.part,
      String(start.rssMb),
      String(end.rssMb),
      signed(end.rssMb - start.rssMb),
      String(start.connections),
      String(end.connections),
      trend,
    ];
  });
  const databases = Object.keys(last.db).map((name) => [
    name,
    String(first.db[name] ?? 0),
    String(last.db[name]),
  ]);
  const failures = [...soak.tallies]
    .flatMap(([name, t]) => [...new Set(t.failures)].slice(0, 3).map((f) => `  ${name}: ${f}`))
    .join('\n');
  return [
    `\nSoak: ${(seconds / 60).toFixed(1)} min, ${INSTANCES} instances on ${HYPERVISORS} hypervisors, ${CLIENTS} clients: ${total} operations, ${(total / seconds).toFixed(1)}/s, error rate ${pct(failed, total)}`,
    table(['Operation', 'Count', 'Failed', 'Error rate', 'p50 ms', 'p99 ms'], rows),
    '\nProcesses: resident memory (MB) and TCP connections, at the start and at the end (10 s after the traffic)',
    table(
      ['Process', 'RSS start', 'RSS end', 'Growth', 'Conns start', 'Conns end', 'RSS each minute'],
      processes,
    ),
    '\nPostgreSQL connections by database',
    table(['Database', 'Start', 'End'], databases),
    ...(failures ? ['\nFailures (the first three of each kind):', failures] : []),
  ].join('\n');
}

const pct = (n: number, of: number) => (of === 0 ? '0%' : `${((n / of) * 100).toFixed(2)}%`);
const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(value < 10 ? 1 : 0));
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

main().catch((error: unknown) => {
  say(`the soak failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
});

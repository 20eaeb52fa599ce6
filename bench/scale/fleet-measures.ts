/** What the fleet part reads of the API and the database (fleet-figures.ts). */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { probe } from '../agent-round-trip.js';
import { inFlight } from '../in-flight.js';
import { askProbe } from '../server-probe.js';
import type { BenchStack, WorkflowStack } from '../stack.js';

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;

/** The API's CPU as a share of one core over `windowMs`, and its memory at the end. */
export async function idleWindow(stack: BenchStack, windowMs: number) {
  await askProbe(stack.api, { probe: 'reset' });
  const started = performance.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const answer = await askProbe(stack.api, { probe: 'read' });
  if (answer.probe !== 'read') throw new Error('the API probe answered out of turn');
  return {
    cpuShare: answer.window.cpuUs / 1000 / (performance.now() - started),
    rssMb: rssMb(stack.api.pid!),
  };
}

/** `load.count` probe workflows, `load.inFlight` at a time, on random fleet hypervisors; each task's queue → lease time, ms. */
export async function pickups(
  workflows: WorkflowStack,
  db: Database,
  hypervisors: readonly string[],
  load: { count: number; inFlight: number },
) {
  const deps = workflows.deps();
  const ids: string[] = [];
  await inFlight(load.count, load.inFlight, async () => {
    const hypervisorId = hypervisors[Math.floor(Math.random() * hypervisors.length)]!;
    ids.push((await probe(deps, hypervisorId)).workflowId);
  });
  const { rows } = await sql<{ ms: number }>`
    select extract(epoch from leased_at - created_at) * 1000 as ms from agent_tasks
     where workflow_id = any(${ids}) and leased_at is not null`.execute(db);
  return rows.map((r) => Number(r.ms));
}

/**
 * Rows and bytes (heap, indexes and TOAST) of each metrics table, vacuumed first as autovacuum
 * would: a rollup row is rewritten by every sample it takes, and its dead versions are not kept.
 */
export async function metricTables(db: Database) {
  await sql`vacuum instance_metrics, instance_metric_rollups`.execute(db);
  const { rows } = await sql<{ name: string; rows: string; bytes: string }>`
    select 'raw' as name, (select count(*) from instance_metrics) as rows,
           pg_total_relation_size('instance_metrics') as bytes
    union all
    select 'rollup', (select count(*) from instance_metric_rollups), pg_total_relation_size('instance_metric_rollups')`.execute(
    db,
  );
  const of = (name: string) => {
    const row = rows.find((r) => r.name === name)!;
    return { rows: Number(row.rows), bytes: Number(row.bytes) };
  };
  return { raw: of('raw'), rollup: of('rollup') };
}

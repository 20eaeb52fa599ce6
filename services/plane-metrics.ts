import client from 'prom-client';
import type { Database } from '../db/database.js';
import {
  listHypervisorLiveness,
  listMigrationCounts,
  listOperationCounts,
  listQueuedTasksByHypervisor,
} from '../db/repositories/plane-gauges.js';
import { HYPERVISOR_STATUSES } from '../domain/hypervisors.js';
import { MIGRATION_STATES } from '../domain/migrations/states.js';

/** A gauge whose value is read from the database at each scrape, all its series at once. */
function gaugeRead<L extends string>(
  registry: client.Registry,
  spec: { name: string; help: string; labelNames: readonly L[] },
  read: (gauge: client.Gauge<L>) => Promise<void>,
) {
  return new client.Gauge<L>({
    ...spec,
    registers: [registry],
    async collect() {
      // A series that is gone (a hypervisor's queue emptied) must not keep its last value.
      this.reset();
      await read(this);
    },
  });
}

/** One read for the gauges of one scrape that show parts of it (they are collected one after another). */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let latest: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!latest || performance.now() - latest.at > 500) latest = { at: performance.now(), value: read() };
    return latest.value;
  };
}

/**
 * The plane's state as gauges (docs/operations.md "Metrics"), read from the database when
 * Prometheus scrapes, so every API process tells the same truth, whoever changed it: agent-task
 * queues per hypervisor, hypervisor liveness, operations by kind and state, migrations by state.
 */
export function registerPlaneMetrics(registry: client.Registry, db: Database): void {
  const queues = sharedRead(() => listQueuedTasksByHypervisor(db));
  const liveness = sharedRead(() => listHypervisorLiveness(db));
  gaugeRead(
    registry,
    {
      name: 'cloudsvc_agent_tasks_queued',
      help: 'Agent tasks waiting for their agent.',
      labelNames: ['hypervisor'],
    },
    async (gauge) => {
      for (const row of await queues()) gauge.set({ hypervisor: row.hypervisor }, Number(row.queued));
    },
  );
  gaugeRead(
    registry,
    {
      name: 'cloudsvc_agent_task_oldest_queued_seconds',
      help: 'How long the oldest queued agent task of a hypervisor has waited.',
      labelNames: ['hypervisor'],
    },
    async (gauge) => {
      for (const row of await queues()) gauge.set({ hypervisor: row.hypervisor }, row.oldest_seconds);
    },
  );
  gaugeRead(
    registry,
    { name: 'cloudsvc_hypervisors', help: 'Hypervisors by status.', labelNames: ['status'] },
    async (gauge) => {
      const rows = await liveness();
      for (const status of HYPERVISOR_STATUSES)
        gauge.set({ status }, rows.filter((r) => r.status === status).length);
    },
  );
  gaugeRead(
    registry,
    {
      name: 'cloudsvc_hypervisor_silence_seconds',
      help: 'Seconds since each hypervisor’s agent was last heard.',
      labelNames: ['hypervisor'],
    },
    async (gauge) => {
      for (const row of await liveness())
        if (row.silent_seconds !== null) gauge.set({ hypervisor: row.name }, row.silent_seconds);
    },
  );
  gaugeRead(
    registry,
    {
      name: 'cloudsvc_operations',
      help: 'Instance operations by kind and state: running ones are in flight, the others finished so.',
      labelNames: ['kind', 'state'],
    },
    async (gauge) => {
      for (const row of await listOperationCounts(db))
        gauge.set({ kind: row.kind, state: row.state }, Number(row.count));
    },
  );
  gaugeRead(
    registry,
    { name: 'cloudsvc_migrations', help: 'Migrations by state.', labelNames: ['state'] },
    async (gauge) => {
      const counts = new Map((await listMigrationCounts(db)).map((r) => [r.state, Number(r.count)]));
      for (const state of MIGRATION_STATES) gauge.set({ state }, counts.get(state) ?? 0);
    },
  );
}

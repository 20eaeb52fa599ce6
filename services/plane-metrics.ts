import client from 'prom-client';
import type { Database } from '../db/database.js';
import {
  listHypervisorLiveness,
  listLiveMoveFigures,
  listMigrationCounts,
  listOperationCounts,
  listQueuedTasksByHypervisor,
} from '../db/repositories/metrics/plane-gauges.js';
import { HYPERVISOR_STATUSES } from '../domain/hypervisors.js';
import type { LiveProgressRecord } from '../domain/migrations/live-progress.js';
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
 * queues per hypervisor, hypervisor liveness, operations by kind and state, migrations by state,
 * and the figures of each live move under way.
 */
export function registerPlaneMetrics(registry: client.Registry, db: Database): void {
  registerLiveMoveGauges(registry, db);
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

type Figures = NonNullable<LiveProgressRecord['figures']>;

/**
 * A live move's latest figures (docs/migration.md "Live progress"), one series per move under way,
 * labelled by its migration's uuid; a move's series go once its live task has ended.
 */
const LIVE_MOVE_GAUGES: readonly { name: string; help: string; value: (f: Figures) => number }[] = [
  {
    name: 'cloudsvc_migration_live_transferred_bytes',
    help: 'Memory a live move has sent so far.',
    value: (f) => f.transferred_bytes,
  },
  {
    name: 'cloudsvc_migration_live_remaining_bytes',
    help: 'Memory a live move has still to send.',
    value: (f) => f.remaining_bytes,
  },
  {
    name: 'cloudsvc_migration_live_dirty_rate_bytes_per_second',
    help: 'The rate the guest of a live move dirties its memory at.',
    value: (f) => f.dirty_rate_bytes_per_s,
  },
  {
    name: 'cloudsvc_migration_live_iterations',
    help: 'Passes a live move has made over the guest’s memory.',
    value: (f) => f.iterations,
  },
  {
    name: 'cloudsvc_migration_live_throttle_percent',
    help: 'How much auto-converge slows the guest of a live move (0: not at all).',
    value: (f) => f.throttle_pct,
  },
  {
    name: 'cloudsvc_migration_live_expected_downtime_seconds',
    help: 'The downtime a switchover of a live move would take now, as the hypervisor expects it.',
    value: (f) => f.expected_downtime_ms / 1000,
  },
];

function registerLiveMoveGauges(registry: client.Registry, db: Database): void {
  const moves = sharedRead(() => listLiveMoveFigures(db));
  for (const { value, ...spec } of LIVE_MOVE_GAUGES)
    gaugeRead(registry, { ...spec, labelNames: ['migration'] }, async (gauge) => {
      for (const move of await moves()) gauge.set({ migration: move.migration }, value(move.figures));
    });
}

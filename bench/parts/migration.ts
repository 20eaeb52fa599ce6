import { insertUser } from '../../db/repositories/accounts/users.js';
import { insertHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { runningInstance } from '../bench-instance.js';
import { runMigrations } from '../migrations.js';
import type { BenchStack } from '../stack.js';

const MIGRATIONS = Number(process.env.BENCH_MIGRATIONS ?? 20);

/** 5. Migrations of one running instance between the agent's hypervisor and a second one. */
export async function migrationPart(stack: BenchStack): Promise<void> {
  const { db } = stack;
  const workflows = await stack.workflows();
  const hv = workflows.hypervisorId;
  const second = await insertHypervisor(db, {
    name: 'bench-hv-2',
    locationId: stack.location.id,
    ...workflows.size,
    capabilities: ['live_migration'],
    storageBackends: ['local'],
  });
  await db
    .updateTable('hypervisors')
    .set({ capabilities: JSON.stringify(['live_migration']) })
    .where('id', '=', hv)
    .execute();
  const secondAgent = await workflows.startAgent(second.id, 'second bench agent');
  const deps = workflows.deps({ MIGRATION_SOURCE_RETENTION_MS: 0 });
  const moving = await runningInstance(deps, {
    name: 'bench-migration',
    userId: stack.user.id,
    locationId: stack.location.id,
    hypervisorId: hv,
  });
  const admin = await insertUser(db, {
    email: `bench-admin-${crypto.randomUUID()}@example.test`,
    name: 'Bench admin',
    isAdmin: true,
  });
  const poll = stack.pollDatabase('migration');
  try {
    const moves = (count: number) =>
      runMigrations({
        deps,
        pollDb: poll.db,
        admin: { type: 'admin', userId: admin.id },
        instanceId: moving.id,
        hypervisorIds: [hv, second.id],
        count,
      });
    await moves(2);
    const times = await moves(MIGRATIONS);
    const quantile = (values: number[], q: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
    };
    const p50 = quantile(times.completedMs, 0.5);
    console.log(
      `migration (${MIGRATIONS} live moves of one running instance between two hypervisors, zero-latency driver, ` +
        `request to COMPLETED): p50 ${p50.toFixed(1)} ms (target <= 1000: ${p50 <= 1000 ? 'met' : 'NOT met'}), ` +
        `p99 ${quantile(times.completedMs, 0.99).toFixed(1)} ms; to CLEANED_UP (no retention window) p50 ` +
        `${quantile(times.cleanedUpMs, 0.5).toFixed(1)} ms; failures ${times.failures.length}`,
    );
    for (const failure of new Set(times.failures)) console.log(`  failed: ${failure}`);
  } finally {
    await poll.close();
    await stack.kill(secondAgent);
  }
}

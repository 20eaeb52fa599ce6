import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { queueAgentTask } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { recordLiveEnd, recordLiveFigures } from '../../db/repositories/moves/migration-progress.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import type { LiveMigrationFigures } from '../../domain/migrations/live-progress.js';
import { seed } from '../support/seed.js';

/**
 * A live move's figures on its record (docs/migration.md "Live progress"): the record names the
 * report they came in, so an older report of the same task never replaces them, a retried task's
 * do, and nothing replaces the end.
 */
let handle: DatabaseHandle;
beforeAll(() => {
  handle = createDatabase({ url: inject('databaseUrl'), poolSize: 2, namedStatements: false });
});
afterAll(() => handle.close());

const figures = (transferred: number): LiveMigrationFigures => ({
  kind: 'live_migration',
  transferred_bytes: transferred,
  remaining_bytes: 1000 - transferred,
  total_bytes: 1000,
  dirty_rate_bytes_per_s: 10,
  iterations: 2,
  throttle_pct: 20,
  expected_downtime_ms: 30,
});

/** A live migration and `tasks` attempts of its `migration.live` task on the source. */
async function liveMove(tasks = 1) {
  const { db } = handle;
  const user = await seed.user(db);
  const location = await seed.location(db);
  const source = await seed.hypervisor(db, location.id);
  const target = await seed.hypervisor(db, location.id);
  const instance = await seed.instance(db, {
    userId: user.id,
    locationId: location.id,
    hypervisorId: source.id,
  });
  const id = randomUUID();
  const workflowId = `migration-progress-${id}`;
  await insertMigration(db, {
    id,
    instanceId: instance.id,
    sourceHypervisorId: source.id,
    targetHypervisorId: target.id,
    mode: 'LIVE_REQUIRED',
    strategy: 'live',
    operationId: randomUUID(),
    workflowId,
    requestedBy: 'admin:test',
    reason: null,
    warnings: [],
    networkPlan: {},
  });
  const taskIds: string[] = [];
  for (let attempt = 1; attempt <= tasks; attempt++)
    taskIds.push(
      await queueAgentTask(db, {
        hypervisorId: source.id,
        type: 'migration.live',
        params: { migration_id: id, instance_id: instance.id, target_hypervisor_id: target.id },
        taskToken: Buffer.from(`token-${attempt}`),
        workflowId,
        runId: randomUUID(),
        activityId: '1',
        attempt,
        correlationId: null,
      }),
    );
  const shown = async () => (await findMigration(db, id))!.live_progress;
  return { id, taskIds, shown };
}

describe('a live move’s figures on its record', () => {
  it('take a newer report of the task, never an older one, and no figures from another migration’s task', async () => {
    const { db } = handle;
    const move = await liveMove();
    const other = await liveMove();
    const [taskId] = move.taskIds as [string];
    await recordLiveFigures(db, { taskId, sequence: 5, figures: figures(500) });
    expect(await move.shown()).toMatchObject({
      task_id: taskId,
      sequence: 5,
      downtime_ms: null,
      total_ms: null,
    });
    await recordLiveFigures(db, { taskId, sequence: 4, figures: figures(400) });
    await recordLiveFigures(db, { taskId, sequence: 5, figures: figures(450) });
    expect((await move.shown())?.figures?.transferred_bytes).toBe(500);
    await recordLiveFigures(db, { taskId, sequence: 6, figures: figures(600) });
    expect((await move.shown())?.figures?.transferred_bytes).toBe(600);
    expect(await other.shown()).toBeNull();
  });

  it('take a retried task’s figures over the abandoned one’s, whatever their sequences', async () => {
    const { db } = handle;
    const move = await liveMove(2);
    const [first, retry] = move.taskIds as [string, string];
    await recordLiveFigures(db, { taskId: first, sequence: 40, figures: figures(700) });
    await recordLiveFigures(db, { taskId: retry, sequence: 2, figures: figures(100) });
    expect(await move.shown()).toMatchObject({
      task_id: retry,
      sequence: 2,
      figures: { transferred_bytes: 100 },
    });
  });

  it('keep the last figures at the end, add the downtime and the total time, and then change no more', async () => {
    const { db } = handle;
    const move = await liveMove();
    const [taskId] = move.taskIds as [string];
    await recordLiveFigures(db, { taskId, sequence: 3, figures: figures(900) });
    const end = await recordLiveEnd(db, { taskId, sequence: 4, downtimeMs: 12 });
    expect(end).toEqual({ downtimeMs: 12, totalMs: expect.any(Number) });
    expect(end!.totalMs).toBeGreaterThanOrEqual(0);
    const ended = await move.shown();
    expect(ended).toMatchObject({
      figures: { transferred_bytes: 900 },
      downtime_ms: 12,
      total_ms: end!.totalMs,
    });
    await recordLiveFigures(db, { taskId, sequence: 9, figures: figures(10) });
    expect(await recordLiveEnd(db, { taskId, sequence: 10, downtimeMs: 99 })).toBeUndefined();
    expect(await move.shown()).toEqual(ended);
  });

  it('end with no figures when no report carried any', async () => {
    const { db } = handle;
    const move = await liveMove();
    const [taskId] = move.taskIds as [string];
    await recordLiveEnd(db, { taskId, sequence: 2, downtimeMs: 7 });
    expect(await move.shown()).toMatchObject({ figures: null, downtime_ms: 7 });
  });
});

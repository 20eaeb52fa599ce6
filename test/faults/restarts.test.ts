import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { skipWithoutShape } from '../support/prod-shape/needs.js';
import { PROD_SHAPE_START_MS, type ProdShape, startProdShape } from '../support/prod-shape/shape.js';
import { runAtOnce, stepRuns } from './agent-runs.js';
import { ending, migrateToOther, placement } from './migrations.js';
import { backUp, latestOperation, operationEnded, order, running } from './operations.js';
import { recordFault } from './table.js';
import {
  allTaken,
  quietInstances,
  suspensionEvents,
  toggleSuspension,
  WEBHOOK_FAULT_SETTINGS,
  watchSuspensions,
} from './webhooks.js';

/**
 * PostgreSQL, then the Temporal server, restarted while a provisioning, a backup and a migration
 * are under way: each of them ends (none stays running for ever), no step runs twice at once on a hypervisor (it may run again), and
 * where each left its instance the panel and the hypervisors agree. PostgreSQL is stopped with a
 * fast shutdown (every connection cut) and kept down for a few seconds; the Temporal server is
 * killed (kill -9) and started again by the stack. `npm run test:faults` also crashes PostgreSQL
 * (an immediate shutdown, recovered from its WAL) and keeps it down for ten seconds. PostgreSQL
 * is restarted once more while webhooks are being delivered: none lost, none taken twice by a
 * receiver that takes each webhook-id once.
 */
const skipped = skipWithoutShape('the fault suite');

let shape: ProdShape;
/** An instance of its own for the migrations, so that the demo instance's backups do not wait on them. */
let mover: string;
beforeAll(async () => {
  if (skipped) return;
  shape = await startProdShape(WEBHOOK_FAULT_SETTINGS);
  mover = await order(shape, 'mover');
  await running(shape, mover);
}, PROD_SHAPE_START_MS);
afterAll(async () => {
  await shape?.stop();
});

const restarts: Record<string, () => Promise<void>> = {
  'PostgreSQL restarted (fast shutdown, 3 s down)': () => shape.restartDatabase(3_000),
  'Temporal server killed (kill -9) and restarted': async () => {
    const killed = shape.kill('temporal');
    await shape.back('temporal', killed);
  },
  ...(process.env.FAULTS === 'all' && {
    'PostgreSQL crashed (immediate shutdown, 10 s down)': () => shape.restartDatabase(10_000, 'immediate'),
  }),
};

describe.skipIf(skipped)(
  'PostgreSQL and the Temporal server restarted mid-operation (production shape)',
  () => {
    it.each(Object.keys(restarts))(
      '%s during a provisioning, a backup and a migration: each ends, the panel and the hypervisors agreeing',
      {
        timeout: 400_000,
      },
      async (fault) => {
        const ordered = await order(shape, `ordered-${Date.now()}`);
        await backUp(shape, shape.demoInstance);
        const migration = await migrateToOther(shape, mover);
        const underWay = await Promise.all(
          [ordered, shape.demoInstance, mover].map(
            async (i) => (await latestOperation(shape, i)).state === 'running',
          ),
        );
        await restarts[fault]!();

        const provisioned = await operationEnded(shape, ordered);
        const backedUp = await operationEnded(shape, shape.demoInstance);
        const moved = await ending(shape, migration.id);
        const where = await Promise.all([ordered, shape.demoInstance, mover].map((i) => placement(shape, i)));
        const agree = where.every(
          (w) =>
            w.holders.length === 1 &&
            w.holders[0] === w.panel.hypervisor_id &&
            w.power[0] === w.panel.status &&
            w.panel.operation_id === null &&
            !w.leased,
        );
        const steps = (
          await Promise.all(
            [provisioned.workflow_id, backedUp.workflow_id, migration.workflowId].map((w) =>
              stepRuns(shape, w),
            ),
          )
        ).flat();
        const atOnce = runAtOnce(steps);
        const again = steps.filter((s) => s.runs > 1).length;
        const outcomes = [
          `provisioning ${provisioned.state}`,
          `backup ${backedUp.state}`,
          `migration ${moved}`,
          agree ? 'panel and hypervisors agree' : `DISAGREE: ${JSON.stringify(where)}`,
          `${again} steps run again, ${atOnce.length} twice at once`,
        ];
        recordFault(inject('faultsFolder'), {
          fault,
          during: `a provisioning, a backup and a live migration (${underWay.filter(Boolean).length} of 3 under way)`,
          outcome: outcomes.join('; '),
          held: agree && atOnce.length === 0 && underWay.every(Boolean),
        });
        expect(underWay, 'each operation under way when the fault hit').toEqual([true, true, true]);
        expect(where.map((w) => ({ ...w, holders: w.holders.length }))).toEqual(
          where.map((w) => ({
            panel: { ...w.panel, operation_id: null },
            holders: 1,
            power: [w.panel.status],
            leased: false,
          })),
        );
        expect(where.map((w) => w.holders[0])).toEqual(where.map((w) => w.panel.hypervisor_id));
        expect(atOnce).toEqual([]);
      },
    );
  },
);

describe.skipIf(skipped)('PostgreSQL restarted mid-delivery of webhooks (production shape)', () => {
  it('24 events on their way to a receiver, PostgreSQL restarted (fast shutdown, 3 s down): each delivered, each webhook-id taken once', {
    timeout: 180_000,
  }, async () => {
    const watch = await watchSuspensions(shape);
    try {
      const instances = await quietInstances(shape, 6, 'restart-delivering');
      // Held back while the changes are made, then let go: the deliveries are under way together.
      watch.receiver.answerAll(503);
      for (const suspend of [true, false, true, false])
        for (const instance of instances) await toggleSuspension(shape.application, instance, suspend);
      const events = await suspensionEvents(shape, instances);
      watch.receiver.answerAll();
      // Some taken, more on their way: the restart lands in the middle of the deliveries.
      await eventually(() => watch.receiver.accepted.size >= 3, 60_000, 'the first deliveries');
      const before = watch.receiver.accepted.size;
      await shape.restartDatabase(3_000);
      const taken = await allTaken(watch.receiver, events, 120_000);
      const held = events.length === 24 && before < events.length && taken.missing.length === 0;
      recordFault(inject('faultsFolder'), {
        fault: 'PostgreSQL restarted (fast shutdown, 3 s down)',
        during: `webhook deliveries of ${events.length} events (${before} taken before it)`,
        outcome: `${taken.accepted} of ${events.length} taken, each webhook-id once; ${taken.missing.length} missing; ${taken.sentAgain} sent again after a 2xx (at least once)`,
        held,
      });
      expect(events).toHaveLength(24);
      expect(before).toBeLessThan(events.length);
      expect(taken.missing).toEqual([]);
      expect(watch.receiver.accepted.size).toBe(events.length);
    } finally {
      await watch.stop();
    }
  });
});

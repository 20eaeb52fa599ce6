import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { happyPath, type MigrationState } from '../../domain/migrations/states.js';
import { skipWithoutShape } from '../support/prod-shape/needs.js';
import { PROD_SHAPE_START_MS, type ProdShape, startProdShape } from '../support/prod-shape/shape.js';
import { stepRuns } from './agent-runs.js';
import { ending, migrateToOther, placement } from './migrations.js';
import { installStepPause, pauseAt, pausedWriter, releasePause } from './step-pause.js';
import { recordFault } from './table.js';

/**
 * kill -9 the worker running a migration as it records entering a step (held there by
 * step-pause.ts, so that the kill lands on the boundary itself): the other worker takes the run
 * over from its history, and the move ends as if nothing had happened (a worker is not a party
 * to the move: losing one is no reason to roll back). `npm run test:faults` aims at every step a
 * worker records (REQUESTED is the API's); `npm test` at three: the first, the live switchover,
 * the commit.
 */
const skipped = skipWithoutShape('the fault suite');
const AIMS: MigrationState[] =
  process.env.FAULTS === 'all'
    ? happyPath('live').filter((s) => s !== 'REQUESTED')
    : ['READY', 'LIVE_MIGRATING', 'COMMITTING'];

let shape: ProdShape;
beforeAll(async () => {
  if (skipped) return;
  shape = await startProdShape();
  await installStepPause(shape.db);
}, PROD_SHAPE_START_MS);
afterAll(async () => {
  await shape?.stop();
});

describe.skipIf(skipped)('a worker killed mid-migration (production shape)', () => {
  it.each(AIMS)(
    'a worker killed as it records entering %s: the other worker ends the migration CLEANED_UP, every side agreeing, each step run once on its hypervisor',
    {
      timeout: 300_000,
    },
    async (aim) => {
      const instance = shape.demoInstance;
      await pauseAt(shape.db, instance, aim);
      const migration = await migrateToOther(shape, instance);
      const writer = await pausedWriter(shape.db);
      const part = shape.partOf(writer.pid);
      expect(part, `the process writing ${aim} (pid ${writer.pid})`).toMatch(/^worker-/);
      shape.kill(part!);
      await releasePause(shape.db, instance, writer.backend);

      const ended = await ending(shape, migration.id);
      const where = await placement(shape, instance);
      const again = (await stepRuns(shape, migration.workflowId))
        .filter((s) => s.runs !== 1)
        .map((s) => s.step);
      const held =
        ended === 'CLEANED_UP' &&
        where.panel.hypervisor_id === migration.target &&
        where.panel.status === 'running' &&
        where.panel.operation_id === null &&
        where.holders.join() === migration.target &&
        where.power.join() === 'running' &&
        !where.leased &&
        again.length === 0;
      recordFault(inject('faultsFolder'), {
        fault: `${part} killed (kill -9)`,
        during: `live migration, recording ${aim}`,
        outcome: `${ended}; panel: ${shape.nameOf(where.panel.hypervisor_id)} ${where.panel.status}; hypervisors: ${where.holders.map((h) => shape.nameOf(h)).join('+') || 'none'} ${where.power.join('+')}; steps run more than once: ${again.length}`,
        held,
      });
      expect(ended).toBe('CLEANED_UP');
      expect(where).toEqual({
        panel: { hypervisor_id: migration.target, status: 'running', operation_id: null },
        holders: [migration.target],
        power: ['running'],
        leased: false,
      });
      expect(again).toEqual([]);
      // The next kill finds two workers again.
      await shape.back(part!, writer.pid);
    },
  );
});

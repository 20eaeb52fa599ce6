import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { installReplayRuntime, replayHistories, workflowTypeOf } from '../../worker/replay.js';
import { bundleAlteredWorkflows } from './altered-bundle.js';
import { readHistoryFixtures } from './histories.js';

/**
 * The recorded histories (test/fixtures/histories, `npm run record:histories`) replayed against
 * the workflow code of this checkout: a change that would break a running workflow fails here.
 */
const fixtures = readHistoryFixtures();
let current: { code: string };
beforeAll(() => {
  installReplayRuntime();
  current = { code: readFileSync(inject('workflowBundlePath'), 'utf8') };
});

describe('recorded workflow histories', () => {
  it('cover every workflow type, completed, failed and cancelled', () => {
    expect(fixtures.map((f) => f.workflowId)).toEqual(
      expect.arrayContaining([
        'powerInstance-stop-completed',
        'powerInstance-restart-failed',
        'powerInstance-stop-cancelled',
        'provisionInstance-completed',
        'probeHypervisor-completed',
      ]),
    );
    for (const fixture of fixtures)
      expect(fixture.workflowId.startsWith(`${workflowTypeOf(fixture.history)}-`), fixture.workflowId).toBe(
        true,
      );
  });

  it('all replay on the current workflow code', async () => {
    const verdicts = await replayHistories(current, fixtures);
    expect(verdicts.map((v) => v.workflowId)).toEqual(fixtures.map((f) => f.workflowId));
    for (const verdict of verdicts) expect(verdict, JSON.stringify(verdict)).toMatchObject({ ok: true });
  });

  it('a workflow changed without patched() is caught as nondeterminism, at the event it breaks', async () => {
    const changed = fixtures.filter((f) =>
      ['powerInstance-stop-completed', 'probeHypervisor-completed'].includes(f.workflowId),
    );
    const verdicts = await replayHistories(await bundleAlteredWorkflows(), changed);
    const verdict = verdicts.find((v) => v.workflowType === 'powerInstance');
    const probe = verdicts.find((v) => v.workflowType === 'probeHypervisor');
    expect(verdict).toMatchObject({
      workflowType: 'powerInstance',
      ok: false,
      nondeterminism: true,
      // The recorded run asked the agent first; the altered code schedules something else there.
      event: { id: 5, type: 'ActivityTaskScheduled', activityType: 'runAgentTask' },
    });
    expect(verdict?.ok === false && verdict.message).toMatch(
      /^\[TMPRL1100\] Nondeterminism error: .*'runAgentTask'/,
    );
    // A deleted step: the recorded agent task has no command left to match it.
    expect(probe).toMatchObject({
      workflowType: 'probeHypervisor',
      ok: false,
      nondeterminism: true,
      event: { id: 5, type: 'ActivityTaskScheduled', activityType: 'runAgentTask' },
    });
  });
});

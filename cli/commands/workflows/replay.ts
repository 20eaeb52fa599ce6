import { parseArgs } from 'node:util';
import type { RecordedHistory, ReplayVerdict } from '../../../worker/replay.js';
import { type CliContext, type Command, EXIT, UsageError } from '../../command.js';
import { describeFailure, verdictJson, verdictTable } from '../../replay-report.js';
import { fetchRun, fetchRuns } from '../../replay-source.js';

const DEFAULT_LIMIT = 1000;

/** Replays on the workflows of this checkout. Loaded here: the native runtime and the bundler serve only this command. */
async function replay(histories: readonly RecordedHistory[]): Promise<ReplayVerdict[]> {
  const { installReplayRuntime, replayHistories } = await import('../../../worker/replay.js');
  const { bundleWorkflows } = await import('../../../worker/worker.js');
  installReplayRuntime();
  return replayHistories(await bundleWorkflows(), histories);
}

/**
 * The runs a visibility query matches, each replayed: a table (or JSON), exit 1 when any does not
 * replay. Each run is replayed under its own key, as the runs of one workflow id (continued as new)
 * share that id.
 */
async function replayQuery(ctx: CliContext, query: string, limit: number, json: boolean): Promise<number> {
  const { runs, more } = await fetchRuns(query, limit);
  if (more) ctx.err(`warning: more than ${limit} runs match; the newest ${limit} are replayed (--limit)`);
  const keyed = runs.map((r) => ({ workflowId: `${r.workflowId}#${r.runId}`, history: r.history }));
  const verdicts = (runs.length === 0 ? [] : await replay(keyed)).map((v) => {
    const [workflowId, runId] = v.workflowId.split('#') as [string, string];
    return { ...v, workflowId, runId };
  });
  if (json) ctx.out(JSON.stringify(verdicts.map(verdictJson)));
  else if (runs.length === 0) ctx.out('No run matches the query.');
  else for (const line of verdictTable(verdicts)) ctx.out(line);
  for (const verdict of verdicts) if (!verdict.ok) ctx.err(describeFailure(verdict));
  return verdicts.every((v) => v.ok) ? EXIT.ok : EXIT.failed;
}

/**
 * Before deploying a workflow change: do runs (running or finished) still replay on the code in
 * this checkout? A nondeterminism here is what a worker would hit on that run after the deploy;
 * the change then belongs behind `patched()`. One run by its id, or every run of a query.
 */
export const workflowReplay: Command = {
  name: 'workflow:replay',
  summary:
    'Replay workflow runs’ histories from Temporal (one, or every run of a query) against the current code',
  usage:
    'workflow:replay <workflow id> [--run-id <run id>] [--json] | workflow:replay --query <visibility query> [--limit N] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'run-id': { type: 'string' },
        query: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const [workflowId, ...extra] = positionals;
    if (values.query !== undefined) {
      if (workflowId || values['run-id']) throw new UsageError('a query, or a workflow id: not both');
      const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw new UsageError('--limit must be a whole number, 1 or more');
      return replayQuery(ctx, values.query, limit, values.json);
    }
    if (!workflowId) throw new UsageError('name the workflow by its id, or give --query');
    if (extra.length > 0) throw new UsageError(`one workflow id at a time (also given: ${extra.join(' ')})`);

    const [verdict] = await replay([await fetchRun(workflowId, values['run-id'])]);
    if (!verdict) throw new Error(`the replay of ${workflowId} gave no result`);
    if (values.json) ctx.out(JSON.stringify(verdictJson(verdict)));
    else if (verdict.ok)
      ctx.out(`ok: ${verdict.workflowType} ${verdict.workflowId} replays on the current code`);
    if (!verdict.ok) throw new Error(describeFailure(verdict));
    return undefined;
  },
};

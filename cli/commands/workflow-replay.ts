import { parseArgs } from 'node:util';
import { Client, Connection, isGrpcServiceError } from '@temporalio/client';
import type { History } from '@temporalio/worker';
import { loadConfig } from '../../platform/config.js';
import { readRuntimeFile } from '../../platform/runtime-file.js';
import type { ReplayVerdict } from '../../worker/replay.js';
import { type Command, UsageError } from '../command.js';

const GRPC_NOT_FOUND = 5;

/**
 * TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE as the server reads them; without TEMPORAL_ADDRESS, the
 * Temporal of a running `npm start` stack. The command needs no database, so none is required.
 */
function temporalSettings(env: NodeJS.ProcessEnv = process.env) {
  const runtime = env.TEMPORAL_ADDRESS ? undefined : readRuntimeFile();
  const config = loadConfig({
    DATABASE_URL: 'unused',
    ...env,
    ...(runtime ? { TEMPORAL_ADDRESS: runtime.temporalAddress } : {}),
  });
  return { address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE };
}

async function fetchHistory(workflowId: string, runId: string | undefined): Promise<History> {
  const { address, namespace } = temporalSettings();
  const connection = await Connection.connect({ address, connectTimeout: 5_000 });
  try {
    const client = new Client({ connection, namespace });
    return await client.workflow.getHandle(workflowId, runId).fetchHistory();
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND)
      throw new UsageError(
        `no workflow ${workflowId}${runId ? ` run ${runId}` : ''} in namespace ${namespace}`,
      );
    throw error;
  } finally {
    await connection.close();
  }
}

type FailedReplay = Extract<ReplayVerdict, { ok: false }>;

const eventText = (event: NonNullable<FailedReplay['event']>) =>
  `event ${event.id} (${[event.type, event.activityType].filter(Boolean).join(' ')})`;

function describeFailure(verdict: FailedReplay): string {
  const what = `${verdict.workflowType} ${verdict.workflowId} run ${verdict.runId}`;
  const where = verdict.event ? ` at ${eventText(verdict.event)}` : '';
  return verdict.nondeterminism
    ? `nondeterminism: ${what} does not replay on the current code${where}: ${verdict.message}`
    : `${what} could not be replayed${where}: ${verdict.message}`;
}

/**
 * Before deploying a workflow change: does a run (running or finished) still replay on the code
 * in this checkout? A nondeterminism here is what a worker would hit on that run after the
 * deploy; the change then belongs behind `patched()`.
 */
export const workflowReplay: Command = {
  name: 'workflow:replay',
  summary: 'Replay a workflow run’s history from Temporal against the current workflow code',
  usage: 'workflow:replay <workflow id> [--run-id <run id>] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'run-id': { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const [workflowId, ...extra] = positionals;
    if (!workflowId) throw new UsageError('name the workflow by its id');
    if (extra.length > 0) throw new UsageError(`one workflow id at a time (also given: ${extra.join(' ')})`);

    const history = await fetchHistory(workflowId, values['run-id']);
    // Loaded here, not at start-up: the worker's native runtime and the bundler serve only this command.
    const { installReplayRuntime, replayHistories } = await import('../../worker/replay.js');
    const { bundleWorkflows } = await import('../../worker/worker.js');
    installReplayRuntime();
    const [verdict] = await replayHistories(await bundleWorkflows(), [{ workflowId, history }]);
    if (!verdict) throw new Error(`the replay of ${workflowId} gave no result`);

    if (values.json) {
      ctx.out(
        JSON.stringify({
          workflow_id: verdict.workflowId,
          run_id: verdict.runId,
          workflow_type: verdict.workflowType,
          ok: verdict.ok,
          ...(verdict.ok
            ? {}
            : {
                nondeterminism: verdict.nondeterminism,
                event: verdict.event
                  ? {
                      id: verdict.event.id,
                      type: verdict.event.type,
                      activity_type: verdict.event.activityType ?? null,
                    }
                  : null,
                message: verdict.message,
              }),
        }),
      );
    } else if (verdict.ok) {
      ctx.out(`ok: ${verdict.workflowType} ${verdict.workflowId} replays on the current code`);
    }
    if (!verdict.ok) throw new Error(describeFailure(verdict));
  },
};

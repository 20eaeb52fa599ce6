import { Client, Connection, isGrpcServiceError } from '@temporalio/client';
import { loadConfig } from '../platform/config.js';
import { readRuntimeFile } from '../platform/runtime-file.js';
import type { RecordedHistory } from '../worker/replay.js';
import { UsageError } from './command.js';

const GRPC_NOT_FOUND = 5;
const GRPC_INVALID_ARGUMENT = 3;

/**
 * TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE as the server reads them; without TEMPORAL_ADDRESS, the
 * Temporal of a running `npm start` stack. Replaying needs no database, so none is required.
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

async function withClient<T>(use: (client: Client, namespace: string) => Promise<T>): Promise<T> {
  const { address, namespace } = temporalSettings();
  const connection = await Connection.connect({ address, connectTimeout: 5_000 });
  try {
    return await use(new Client({ connection, namespace }), namespace);
  } finally {
    await connection.close();
  }
}

/** One run's history: the newest run of the workflow unless `runId` names one. */
export function fetchRun(workflowId: string, runId: string | undefined): Promise<RecordedHistory> {
  return withClient(async (client, namespace) => {
    try {
      return { workflowId, history: await client.workflow.getHandle(workflowId, runId).fetchHistory() };
    } catch (error) {
      if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND)
        throw new UsageError(
          `no workflow ${workflowId}${runId ? ` run ${runId}` : ''} in namespace ${namespace}`,
        );
      throw error;
    }
  });
}

/** A run found by a visibility query: its ids and its history. */
export interface FoundRun extends RecordedHistory {
  readonly runId: string;
}

/**
 * Every run a visibility query matches (Temporal's list filter, e.g.
 * `WorkflowType = 'migrateInstance' AND CloudsvcMigrationState = 'RECOVERY_REQUIRED'`), newest
 * first, at most `limit`, each with its history.
 */
export function fetchRuns(query: string, limit: number): Promise<{ runs: FoundRun[]; more: boolean }> {
  return withClient(async (client) => {
    const runs: FoundRun[] = [];
    let more = false;
    try {
      for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
        if (runs.length === limit) {
          more = true;
          break;
        }
        const handle = client.workflow.getHandle(execution.workflowId, execution.runId);
        runs.push({
          workflowId: execution.workflowId,
          runId: execution.runId,
          history: await handle.fetchHistory(),
        });
      }
    } catch (error) {
      // The client wraps the server's refusal (`Failed to list workflows`); the cause says why.
      for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
        if (isGrpcServiceError(cause) && cause.code === GRPC_INVALID_ARGUMENT)
          throw new UsageError(`the query is not valid: ${cause.details}`);
      }
      throw error;
    }
    return { runs, more };
  });
}

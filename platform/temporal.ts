import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import type { Config } from './config.js';

export interface TemporalHandle {
  readonly client: Client;
  close(): Promise<void>;
}

/**
 * A Temporal client whose connection is made on first use. The API then starts, and serves
 * reads, while Temporal is still coming up; a workflow start in that window answers 503.
 * (Connecting eagerly also runs the SDK's AsyncLocalStorage, which on Node 20 turns on promise
 * hooks for the whole process and slows every request.)
 */
export async function connectTemporal(
  config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>,
  interceptors: readonly WorkflowClientInterceptor[] = [],
) {
  const connection = Connection.lazy({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    interceptors: { workflow: [...interceptors] },
  });
  return { client, close: () => connection.close() } satisfies TemporalHandle;
}

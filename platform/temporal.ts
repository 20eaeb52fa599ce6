import { Client, Connection } from '@temporalio/client';
import type { Config } from './config.js';

export interface TemporalHandle {
  readonly client: Client;
  close(): Promise<void>;
}

export async function connectTemporal(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>) {
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  return { client, close: () => connection.close() } satisfies TemporalHandle;
}

import type { Database } from '../db/database.js';
import { providerCallOf, settleProviderRun } from '../db/repositories/network/provider-runs.js';
import type { ProviderOutcome } from '../domain/providers.js';
import { secretBox } from '../platform/secrets.js';
import { callProvider } from './provider-call.js';

/**
 * The steps of a provider's test, sync or rotation. Only the run's id goes in and only an outcome
 * comes out: the credential is read, opened and presented inside `callProviderOfRun`, so it never
 * enters a workflow's history.
 */
export function createProviderActivities(db: Database, secretsKey: string | undefined) {
  return {
    async callProviderOfRun(runId: string): Promise<ProviderOutcome> {
      const call = await providerCallOf(db, runId);
      if (!call) return { result: 'failed', http_status: null, latency_ms: null, items: null };
      // A retried step of a run already settled (or abandoned) reports what was recorded.
      if (call.status !== 'running')
        return {
          result: call.result ?? 'failed',
          http_status: call.http_status,
          latency_ms: call.latency_ms,
          items: call.items,
        };
      if (!call.sealed) return { result: 'no_credential', http_status: null, latency_ms: null, items: null };
      return callProvider(
        call.endpoint,
        secretBox(secretsKey).open(call.sealed),
        call.kind,
        call.provider_kind,
        { protocol: call.dns_protocol, zones: call.dns_zones },
      );
    },

    async settleProviderRun(settlement: { runId: string; outcome: ProviderOutcome }): Promise<void> {
      await settleProviderRun(db, settlement.runId, settlement.outcome);
    },
  };
}

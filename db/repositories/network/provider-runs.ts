import { sql } from 'kysely';
import type { ProviderOutcome, ProviderRunKind } from '../../../domain/providers.js';
import type { Database } from '../../database.js';
import { type ProviderRunRow, RUN_COLUMNS } from './provider-run-lists.js';

// The runs that test, sync and rotate a provider. A rotation's candidate credential stays in its
// row, sealed, until the run settles: promoted when the provider accepted it, dropped otherwise.

/**
 * Begins a run, or finds the one of its kind already under way (one at a time per provider and
 * kind, held by a unique index): `begun` says which.
 */
export async function beginProviderRun(
  db: Database,
  run: {
    providerId: string;
    kind: ProviderRunKind;
    candidateSealed: string | null;
    requestedBy: string | null;
  },
): Promise<{ run: ProviderRunRow; begun: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const provider = await trx
      .selectFrom('providers')
      .select('id')
      .where('id', '=', run.providerId)
      .forKeyShare()
      .executeTakeFirst();
    if (!provider) return undefined;
    const inserted = await trx
      .insertInto('provider_runs')
      .values({
        provider_id: run.providerId,
        kind: run.kind,
        candidate_sealed: run.candidateSealed,
        requested_by: run.requestedBy,
      })
      // A literal, not a parameter: the conflict target must match the partial index's predicate.
      .onConflict((oc) =>
        oc.columns(['provider_id', 'kind']).where('status', '=', sql.lit('running')).doNothing(),
      )
      .returning(RUN_COLUMNS)
      .executeTakeFirst();
    if (inserted) return { run: inserted, begun: true };
    const running = await trx
      .selectFrom('provider_runs')
      .select(RUN_COLUMNS)
      .where('provider_id', '=', run.providerId)
      .where('kind', '=', run.kind)
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    return { run: running, begun: false };
  });
}

/**
 * What the activity needs to call the provider for a run: its address and the sealed credential
 * to present (a rotation's candidate, otherwise the provider's own). Undefined once the run is gone.
 */
export async function providerCallOf(db: Database, runId: string) {
  return db
    .selectFrom('provider_runs as r')
    .innerJoin('providers as p', 'p.id', 'r.provider_id')
    .select([
      'r.kind',
      'r.status',
      'r.result',
      'r.http_status',
      'r.latency_ms',
      'r.items',
      'p.endpoint',
      'p.kind as provider_kind',
      'p.dns_protocol',
      'p.dns_zones',
      sql<string | null>`case when r.kind = 'rotate' then r.candidate_sealed else p.credential_sealed end`.as(
        'sealed',
      ),
    ])
    .where('r.id', '=', runId)
    .executeTakeFirst();
}

/**
 * Settles a running run with its outcome, once (a repeated settle changes nothing). A rotation the
 * provider accepted promotes its candidate to the provider's credential in the same transaction;
 * either way the candidate leaves the run's row.
 */
export async function settleProviderRun(
  db: Database,
  runId: string,
  outcome: ProviderOutcome,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom('provider_runs')
      .select(['provider_id', 'kind', 'status', 'candidate_sealed'])
      .where('id', '=', runId)
      .forUpdate()
      .executeTakeFirst();
    if (run?.status !== 'running') return;
    await trx
      .updateTable('provider_runs')
      .set({
        status: outcome.result === 'ok' ? 'succeeded' : 'failed',
        result: outcome.result,
        http_status: outcome.http_status,
        latency_ms: outcome.latency_ms,
        items: outcome.items,
        finished_at: sql`now()`,
        candidate_sealed: null,
      })
      .where('id', '=', runId)
      .execute();
    if (run.kind !== 'rotate' || outcome.result !== 'ok' || !run.candidate_sealed) return;
    await trx
      .updateTable('providers')
      .set({
        credential_sealed: run.candidate_sealed,
        credential_rotated_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', run.provider_id)
      .execute();
  });
}

/** A run whose workflow never started: failed, so the next request of its kind may begin. */
export async function abandonProviderRun(db: Database, runId: string): Promise<void> {
  await db
    .updateTable('provider_runs')
    .set({ status: 'failed', finished_at: sql`now()`, candidate_sealed: null })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .execute();
}

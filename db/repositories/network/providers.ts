import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { DnsProtocol, ProviderKind } from '../../../domain/providers.js';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';

// Providers as the API shows them: every column but the sealed credential, which only
// provider-runs.ts reads, for the activity that calls the provider.

const PROVIDER_COLUMNS = [
  'id',
  'name',
  'kind',
  'endpoint',
  'dns_zones',
  'dns_protocol',
  'credential_rotated_at',
  'created_at',
  'updated_at',
] as const;

/** What a provider shows: its columns, and whether a credential is set (never the credential). */
const PROVIDER_SELECTION = [
  ...PROVIDER_COLUMNS,
  sql<boolean>`credential_sealed is not null`.as('credential_set'),
] as const;

export type ProviderRow = NonNullable<Awaited<ReturnType<typeof findProvider>>>;

export interface ProviderFields {
  readonly name: string;
  readonly kind: ProviderKind;
  readonly endpoint: string;
  /** A DNS provider's reverse zones, canonical (domain/dns/reverse-zones.ts). */
  readonly dns_zones?: string[];
  /** A DNS provider's protocol; null for other kinds. */
  readonly dns_protocol?: DnsProtocol | null;
}

export async function listProviders(db: Database, page: PageRequest, filters: { kind?: ProviderKind }) {
  let query = db.selectFrom('providers');
  if (filters.kind) query = query.where('kind', '=', filters.kind);
  const [rows, total] = await Promise.all([
    query.select(PROVIDER_SELECTION).orderBy('name').limit(page.perPage).offset(offsetOf(page)).execute(),
    query.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export async function findProvider(db: Database, id: string) {
  return db.selectFrom('providers').select(PROVIDER_SELECTION).where('id', '=', id).executeTakeFirst();
}

export async function insertProvider(db: Database, fields: ProviderFields): Promise<ProviderRow> {
  return db.insertInto('providers').values(fields).returning(PROVIDER_SELECTION).executeTakeFirstOrThrow();
}

export async function updateProvider(
  db: Database,
  id: string,
  fields: Partial<Omit<ProviderFields, 'kind' | 'dns_protocol'>>,
): Promise<ProviderRow | undefined> {
  if (Object.keys(fields).length === 0) return findProvider(db, id);
  return db
    .updateTable('providers')
    .set({ ...fields, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(PROVIDER_SELECTION)
    .executeTakeFirst();
}

/** Replaces the credential (already sealed) and stamps the rotation time. */
export async function setProviderCredential(
  db: Database,
  id: string,
  sealed: string,
): Promise<ProviderRow | undefined> {
  return db
    .updateTable('providers')
    .set({ credential_sealed: sealed, credential_rotated_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(PROVIDER_SELECTION)
    .executeTakeFirst();
}

/**
 * Deletes the provider and its finished runs, unless a run is under way (its workflow would settle
 * a run that is gone) or a location names it as its DNS; a run begun meanwhile holds the provider's
 * key share, so it is counted.
 */
export async function deleteProviderUnlessRunning(db: Database, id: string) {
  return deleteUnlessHeld(db, 'providers', id, async (trx) => {
    const { runs } = await trx
      .selectFrom('provider_runs')
      .select(sql<number>`count(*)::int`.as('runs'))
      .where('provider_id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    const { locations } = await trx
      .selectFrom('locations')
      .select(sql<number>`count(*)::int`.as('locations'))
      .where('dns_provider_id', '=', id)
      .executeTakeFirstOrThrow();
    return { runs, locations };
  });
}

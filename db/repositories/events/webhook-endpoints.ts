import { type ExpressionBuilder, sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import type { DB } from '../../schema.js';

/** Whose endpoints: a customer's own, or the plane's (kept by administrators). */
export type EndpointOwner = { readonly userId: string } | 'plane';

// The secret columns are selected only by the delivery (`findEndpointSecrets`), never for a response.
const ENDPOINT_COLUMNS = [
  'id',
  'user_id',
  'url',
  'description',
  'event_types',
  'enabled',
  'disabled_reason',
  'api_version',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
] as const;

export type WebhookEndpointRow = Awaited<ReturnType<typeof findEndpointOf>> & {};

const ownedBy = (owner: EndpointOwner) => (eb: ExpressionBuilder<DB, 'webhook_endpoints'>) =>
  owner === 'plane' ? eb('user_id', 'is', null) : eb('user_id', '=', owner.userId);

export async function findEndpointOf(db: Database, owner: EndpointOwner, endpointId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('id', '=', endpointId)
    .where(ownedBy(owner))
    .executeTakeFirst();
}

/** Oldest first. */
export async function listEndpointsOf(db: Database, owner: EndpointOwner, page: PageRequest) {
  const base = db.selectFrom('webhook_endpoints').where(ownedBy(owner));
  const [rows, total] = await Promise.all([
    base
      .select(ENDPOINT_COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export interface NewEndpoint {
  readonly owner: EndpointOwner;
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly string[];
  readonly enabled: boolean;
  readonly secretSealed: string;
  /** The version its deliveries are rendered in. */
  readonly apiVersion: string;
}

/**
 * Adds an endpoint if its owner holds fewer than `limit`. Adds of one owner take turns (a
 * transaction-scoped advisory lock on the owner), so two at once are counted one after the other.
 * Undefined when the limit is reached.
 */
export async function insertEndpointWithin(trx: Database, endpoint: NewEndpoint, limit: number) {
  if (!trx.isTransaction) throw new Error('insertEndpointWithin runs inside a transaction');
  const ownerKey = endpoint.owner === 'plane' ? 'plane' : endpoint.owner.userId;
  await sql`select pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${ownerKey}`}))`.execute(trx);
  const { held } = await trx
    .selectFrom('webhook_endpoints')
    .select(sql<string>`count(*)`.as('held'))
    .where(ownedBy(endpoint.owner))
    .executeTakeFirstOrThrow();
  if (Number(held) >= limit) return undefined;
  return trx
    .insertInto('webhook_endpoints')
    .values({
      user_id: endpoint.owner === 'plane' ? null : endpoint.owner.userId,
      url: endpoint.url,
      description: endpoint.description,
      event_types: [...endpoint.eventTypes],
      enabled: endpoint.enabled,
      secret_sealed: endpoint.secretSealed,
      api_version: endpoint.apiVersion,
    })
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export interface EndpointChange {
  readonly url?: string;
  readonly description?: string;
  readonly eventTypes?: readonly string[];
  readonly enabled?: boolean;
  readonly apiVersion?: string;
}

export async function updateEndpointOf(
  db: Database,
  owner: EndpointOwner,
  endpointId: string,
  change: EndpointChange,
) {
  return db
    .updateTable('webhook_endpoints')
    .set({
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.eventTypes === undefined ? {} : { event_types: [...change.eventTypes] }),
      // The owner's own decision: a reason the plane gave for disabling it no longer holds.
      ...(change.enabled === undefined ? {} : { enabled: change.enabled, disabled_reason: null }),
      ...(change.apiVersion === undefined ? {} : { api_version: change.apiVersion }),
      updated_at: sql`now()`,
    })
    .where('id', '=', endpointId)
    .where(ownedBy(owner))
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/**
 * A new secret; the current one becomes the previous, which signs beside it for `overlapMs`.
 * A rotation during an overlap ends the older secret's at once: two secrets sign at most.
 */
export async function rotateEndpointSecret(
  db: Database,
  owner: EndpointOwner,
  endpointId: string,
  secretSealed: string,
  overlapMs: number,
) {
  return db
    .updateTable('webhook_endpoints')
    .set({
      previous_secret_sealed: sql`secret_sealed`,
      previous_secret_expires_at: sql`now() + ${`${overlapMs} milliseconds`}::interval`,
      secret_sealed: secretSealed,
      updated_at: sql`now()`,
    })
    .where('id', '=', endpointId)
    .where(ownedBy(owner))
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

export async function deleteEndpointOf(db: Database, owner: EndpointOwner, endpointId: string) {
  return db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', endpointId)
    .where(ownedBy(owner))
    .returning('id')
    .executeTakeFirst();
}

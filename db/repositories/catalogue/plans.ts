import { sql } from 'kysely';
import type { CatalogueReach } from '../../../domain/catalog.js';
import type { HostRequirement } from '../../../domain/instances/host-requirements.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';

const PLAN_COLUMNS = [
  'id',
  'code',
  'name',
  'cpu_cores',
  'memory_mb',
  'disk_mb',
  'host_requirements',
  'is_public',
  'location_id',
  'resize_group',
  'monthly_price_cents',
  'monthly_transfer_gb',
  'created_at',
] as const;

export type PlanRow = NonNullable<Awaited<ReturnType<typeof findPlan>>>;

export interface PlanFields {
  readonly code: string;
  readonly name: string;
  readonly cpu_cores: number;
  readonly memory_mb: number;
  readonly disk_mb: number;
  readonly host_requirements: readonly HostRequirement[];
  readonly is_public: boolean;
  /** The location it is offered in; null: every location. */
  readonly location_id: string | null;
  /** Customers change between public plans of one group (docs/api.md "Plan changes"); null: none. */
  readonly resize_group: string | null;
  readonly monthly_price_cents: number | null;
  readonly monthly_transfer_gb: number | null;
}

/** The plans in reach, by code (the catalogue is small and sorted the way it is ordered from). */
export async function listPlans(db: Database, page: PageRequest, reach: CatalogueReach) {
  const base = db.selectFrom('plans').$if(reach === 'public', (q) => q.where('is_public', '=', true));
  const [rows, total] = await Promise.all([
    base.select(PLAN_COLUMNS).orderBy('code').limit(page.perPage).offset(offsetOf(page)).execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

/** The public plans offered in a location (its own and those of every location), by code. */
export async function publicPlansOfferedIn(db: Database, locationId: string) {
  return db
    .selectFrom('plans')
    .select(PLAN_COLUMNS)
    .where('is_public', '=', true)
    .where((eb) => eb.or([eb('location_id', 'is', null), eb('location_id', '=', locationId)]))
    .orderBy('code')
    .execute();
}

/** The disk of the instance's plan (what its root may grow to); null when it has no plan. */
export async function planDiskOf(db: Database, instanceId: string): Promise<number | null> {
  const row = await db
    .selectFrom('instances as i')
    .innerJoin('plans as p', 'p.id', 'i.plan_id')
    .select('p.disk_mb')
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
  return row?.disk_mb ?? null;
}

export async function findPlan(db: Database, id: string) {
  return db.selectFrom('plans').select(PLAN_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertPlan(db: Database, fields: PlanFields): Promise<PlanRow> {
  return db
    .insertInto('plans')
    .values({ ...fields, host_requirements: JSON.stringify(fields.host_requirements) })
    .returning(PLAN_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The plan with `fields` changed; undefined when there is no such plan. */
export async function updatePlan(
  db: Database,
  id: string,
  fields: Partial<Omit<PlanFields, 'code'>>,
): Promise<PlanRow | undefined> {
  const { host_requirements, ...sizes } = fields;
  if (Object.keys(fields).length === 0) return findPlan(db, id);
  return db
    .updateTable('plans')
    .set({
      ...sizes,
      ...(host_requirements ? { host_requirements: JSON.stringify(host_requirements) } : {}),
    })
    .where('id', '=', id)
    .returning(PLAN_COLUMNS)
    .executeTakeFirst();
}

/**
 * Deletes the plan unless an instance that is not deleted uses it (an order that races the delete is
 * counted, or refused by services/instances/create.ts naming the plan). Deleted instances keep no
 * reference to it; their history is in the activity log.
 */
export async function deletePlanUnlessUsed(db: Database, id: string) {
  return deleteUnlessHeld(
    db,
    'plans',
    id,
    async (trx) => {
      const { count } = await trx
        .selectFrom('instances')
        .select(sql<number>`count(*)::int`.as('count'))
        .where('plan_id', '=', id)
        .where('status', '<>', 'deleted')
        .executeTakeFirstOrThrow();
      return { instances: count };
    },
    (trx) => trx.updateTable('instances').set({ plan_id: null }).where('plan_id', '=', id).execute(),
  );
}

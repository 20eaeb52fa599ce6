import { sql } from 'kysely';
import type { HotplugCeiling } from '../../../domain/instances/hot-resize.js';
import type { InstanceOperation } from '../../../domain/instances/operations.js';
import type { Database } from '../../database.js';
import { moveLeaseHeld } from '../moves/move-leases.js';

// An instance's size as a plan change reads it: its figures, its plan, the room its guest was
// booted with. The reservation that holds its place is instance-size-holds.ts's; what the
// hypervisor reports after the change, instance-size-reports.ts's.

const PLAN_COLUMNS = [
  'p.id',
  'p.code',
  'p.name',
  'p.cpu_cores',
  'p.memory_mb',
  'p.disk_mb',
  'p.is_public',
  'p.location_id',
  'p.resize_group',
  'p.monthly_price_cents',
  'p.monthly_transfer_gb',
] as const;

/** A plan as a plan change reads it: its sizes, where and to whom it is offered, its monthly figures. */
export async function findPlanOffer(db: Database, code: string) {
  return db.selectFrom('plans as p').select(PLAN_COLUMNS).where('p.code', '=', code).executeTakeFirst();
}

export type PlanOfferRow = NonNullable<Awaited<ReturnType<typeof findPlanOffer>>>;

/** The instance (not deleted) with what a plan change decides on; undefined when there is none. */
export async function findResizeSubject(db: Database, instanceId: string) {
  const instance = await db
    .selectFrom('instances as i')
    .select([
      'i.id',
      'i.user_id',
      'i.location_id',
      'i.hypervisor_id',
      'i.plan_id',
      'i.status',
      'i.cpu_cores',
      'i.memory_mb',
      'i.disk_mb',
      'i.hot_ceiling_cpu_cores',
      'i.hot_ceiling_memory_mb',
      sql<boolean>`i.suspended_at is not null`.as('suspended'),
      sql<InstanceOperation | null>`(select o.kind from instance_operations o where o.id = i.operation_id)`.as(
        'running_operation',
      ),
      moveLeaseHeld.as('migrating'),
    ])
    .where('i.id', '=', instanceId)
    .where('i.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!instance) return undefined;
  const plan = instance.plan_id
    ? await db
        .selectFrom('plans as p')
        .select(PLAN_COLUMNS)
        .where('p.id', '=', instance.plan_id)
        .executeTakeFirst()
    : undefined;
  const ceiling: HotplugCeiling | null =
    instance.hot_ceiling_cpu_cores !== null && instance.hot_ceiling_memory_mb !== null
      ? { cpu_cores: instance.hot_ceiling_cpu_cores, memory_mb: instance.hot_ceiling_memory_mb }
      : null;
  return { ...instance, plan: plan ?? null, ceiling };
}

export type ResizeSubject = NonNullable<Awaited<ReturnType<typeof findResizeSubject>>>;

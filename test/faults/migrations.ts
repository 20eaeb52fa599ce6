import { expect } from 'vitest';
import type { MigrationState } from '../../domain/migrations/states.js';
import { eventually } from '../support/eventually.js';
import type { ProdShape } from '../support/prod-shape/shape.js';

/** Where a migration run ends: every one of them ends, one way or another. */
export const MIGRATION_ENDINGS: readonly MigrationState[] = [
  'CLEANED_UP',
  'ROLLED_BACK',
  'RECOVERY_REQUIRED',
];

/** A live migration of `instance` to another demo hypervisor (the other, of two), requested by the administrator. */
export async function migrateToOther(shape: ProdShape, instance: string) {
  const { hypervisor_id: source } = await shape.db
    .selectFrom('instances')
    .select('hypervisor_id')
    .where('id', '=', instance)
    .executeTakeFirstOrThrow();
  const others = shape.hypervisors.filter((h) => h.id !== source);
  const target = others[Math.floor(Math.random() * others.length)]!.id;
  const asked = await shape.admin.POST('/instances/{instance}/migrations', {
    params: { path: { instance } },
    body: { target_hypervisor_uuid: target, mode: 'LIVE_IF_POSSIBLE', reason: 'fault suite' },
  });
  expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
  const { uuid, workflow_id } = asked.data!.attributes as { uuid: string; workflow_id: string };
  return { id: uuid, workflowId: workflow_id, source: source!, target };
}

/** The migration's state now. */
export const stateOf = async (shape: ProdShape, migrationId: string) =>
  (
    await shape.db
      .selectFrom('migrations')
      .select('state')
      .where('id', '=', migrationId)
      .executeTakeFirstOrThrow()
  ).state;

/** The state the migration ends in, once it has ended. */
export const ending = (shape: ProdShape, migrationId: string) =>
  eventually(
    async () => {
      const state = await stateOf(shape, migrationId);
      return MIGRATION_ENDINGS.includes(state) ? state : undefined;
    },
    180_000,
    'the migration to end',
  );

/**
 * Where the migration left the instance, told by each side that knows: the panel's placement and
 * status, and each hypervisor's own state (the guest on one and only one of them, running).
 */
export async function placement(shape: ProdShape, instance: string) {
  const row = await shape.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'status', 'operation_id'])
    .where('id', '=', instance)
    .executeTakeFirstOrThrow();
  const holders = shape.hypervisors.filter((h) => shape.hostedOn(h.id)[instance] !== undefined);
  const leases = await shape.db
    .selectFrom('move_leases')
    .select('instance_id')
    .where('instance_id', '=', instance)
    .execute();
  return {
    panel: row,
    holders: holders.map((h) => h.id),
    power: holders.map((h) => shape.hostedOn(h.id)[instance]!.power_state),
    leased: leases.length > 0,
  };
}

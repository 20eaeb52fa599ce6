import { sql } from 'kysely';
import type { Database } from '../../database.js';

// An instance's network and firewall revisions: the one the panel wants (bumped by every change to
// what the hypervisor should have) and the newest the hypervisor confirmed. One pair per kind of
// set the hypervisor applies whole.

const COLUMNS = {
  network: { wanted: 'network_revision', applied: 'network_applied_revision' },
  firewall: { wanted: 'firewall_revision', applied: 'firewall_applied_revision' },
} as const;

export type RevisedSet = keyof typeof COLUMNS;

/** The instance wants a new network (firewall): its revision moves on. */
export async function bumpRevision(trx: Database, instanceId: string, set: RevisedSet): Promise<void> {
  const column = COLUMNS[set].wanted;
  await trx
    .updateTable('instances')
    .set({ [column]: sql`${sql.ref(column)} + 1` })
    .where('id', '=', instanceId)
    .execute();
}

/** The hypervisor confirmed the set at `appliedRevision` (it never moves back). */
export async function recordApplied(
  db: Database,
  instanceId: string,
  set: RevisedSet,
  appliedRevision: number,
): Promise<void> {
  const column = COLUMNS[set].applied;
  await db
    .updateTable('instances')
    .set({ [column]: sql`greatest(${sql.ref(column)}, ${appliedRevision})` })
    .where('id', '=', instanceId)
    .execute();
}

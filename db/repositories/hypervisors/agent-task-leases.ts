import { sql } from 'kysely';
import type { Database } from '../../database.js';
import { activeCredential } from '../accounts/active-credentials.js';

/**
 * The agents' side of the queue: the lease a poll takes on its next task, and the tasks a poll
 * overlooked.
 */

const OFFERED_COLUMNS = [
  'id',
  'type',
  'params',
  'workflow_id',
  'run_id',
  'activity_id',
  'attempt',
  'correlation_id',
  'trace_parent',
  'last_sequence',
  'created_at',
  'lease_expires_at',
] as const;

/**
 * Leases the oldest task of a hypervisor that is queued, or whose lease lapsed (its agent went
 * away mid-task), to one agent credential, if that credential is still live: a long poll checked
 * it when it began, maybe seconds ago. SKIP LOCKED lets concurrent pollers each take a different
 * task instead of queueing behind one another.
 */
export async function leaseNextTask(
  db: Database,
  hypervisorId: string,
  credentialId: string,
  leaseMs: number,
) {
  return db
    .updateTable('agent_tasks')
    .set({
      status: sql`case when status = 'running' then 'running' else 'leased' end`,
      leased_to: credentialId,
      leased_at: sql`coalesce(leased_at, now())`,
      lease_expires_at: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      updated_at: sql`now()`,
    })
    .where(({ exists }) => exists(activeCredential(db, credentialId)))
    .where(
      'id',
      '=',
      db
        .selectFrom('agent_tasks')
        .select('id')
        .where('hypervisor_id', '=', hypervisorId)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([
              eb('status', 'in', ['leased', 'running']),
              eb('lease_expires_at', '<', sql<Date>`now()`),
            ]),
          ]),
        )
        .orderBy('created_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(OFFERED_COLUMNS)
    .executeTakeFirst();
}

export type OfferedTask = NonNullable<Awaited<ReturnType<typeof leaseNextTask>>>;

/**
 * Of these hypervisors, those with tasks an agent's poll would be offered but was not: queued for
 * longer than `queuedForMs` (an announcement missed, or none to hear) or leased past their lease
 * (the agent died mid-task); with how many. One query for every waiting poll of a process.
 */
export async function findOverlookedTasks(
  db: Database,
  hypervisorIds: readonly string[],
  queuedForMs: number,
): Promise<Map<string, number>> {
  if (hypervisorIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('agent_tasks')
    .select(['hypervisor_id', sql<string>`count(*)`.as('tasks')])
    .where('hypervisor_id', 'in', [...hypervisorIds])
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'queued'),
          eb('created_at', '<', sql<Date>`now() - ${`${queuedForMs} milliseconds`}::interval`),
        ]),
        eb.and([eb('status', 'in', ['leased', 'running']), eb('lease_expires_at', '<', sql<Date>`now()`)]),
      ]),
    )
    .groupBy('hypervisor_id')
    .execute();
  return new Map(rows.map((r) => [r.hypervisor_id, Number(r.tasks)]));
}

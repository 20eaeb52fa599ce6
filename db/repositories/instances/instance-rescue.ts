import { sql } from 'kysely';
import type { Database } from '../../database.js';

/** The instance's status, the operation running on it, and when it last entered rescue mode. */
export async function findRescueFacts(db: Database, instanceId: string) {
  return db
    .selectFrom('instances as i')
    .leftJoin('instance_operations as o', 'o.id', 'i.operation_id')
    .select([
      'i.status',
      'o.kind as running',
      sql<Date | null>`(select max(e.finished_at) from instance_operations e
                         where e.instance_id = i.id and e.kind = 'rescue_enter' and e.state = 'succeeded')`.as(
        'entered_at',
      ),
    ])
    .where('i.id', '=', instanceId)
    .executeTakeFirstOrThrow();
}

import type { Database } from '../db/database.js';
import { recordActivity } from '../db/repositories/activity-log.js';
import { setInstanceStatus } from '../db/repositories/instances.js';

export interface InstanceOutcome {
  readonly instanceId: string;
  readonly status: string;
  readonly event: string;
  readonly detail?: Record<string, unknown>;
  readonly correlationId: string | null;
}

export function createInstanceActivities(db: Database) {
  return {
    /** Records where an instance operation left the instance, and the activity-log line for it. */
    async settleInstance(outcome: InstanceOutcome): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setInstanceStatus(trx, outcome.instanceId, outcome.status);
        await recordActivity(trx, {
          instanceId: outcome.instanceId,
          actor: 'system',
          event: outcome.event,
          detail: { status: outcome.status, ...outcome.detail },
          correlationId: outcome.correlationId,
        });
      });
    },
  };
}

import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';

export interface ActivityEntry {
  readonly instanceId?: string | null;
  readonly userId?: string | null;
  readonly actor: string;
  readonly event: string;
  readonly detail?: Record<string, unknown>;
  readonly correlationId?: string | null;
}

export async function recordActivity(db: Database, entry: ActivityEntry): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      instance_id: entry.instanceId ?? null,
      user_id: entry.userId ?? null,
      actor: entry.actor,
      event: entry.event,
      detail: JSON.stringify(entry.detail ?? {}),
      correlation_id: entry.correlationId ?? null,
    })
    .execute();
}

export async function listActivityOfInstance(db: Database, instanceId: string, limit = 50) {
  return db
    .selectFrom('activity_log')
    .select(['id', 'actor', 'event', 'detail', 'correlation_id', 'created_at'])
    .where('instance_id', '=', instanceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

const ACTIVITY_ORDER: KeysetOrder = { at: 'created_at', id: 'id', idType: 'bigint' };

/** Newest first, by keyset (db/keyset.ts). */
export async function listActivityPageOfInstance(db: Database, instanceId: string, request: ListRequest) {
  const base = db.selectFrom('activity_log').where('instance_id', '=', instanceId);
  return readKeysetPage(
    db,
    ACTIVITY_ORDER,
    request,
    base.select(['id', 'actor', 'event', 'detail', 'correlation_id', 'created_at']),
    base,
  );
}

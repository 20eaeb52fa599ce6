import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';

export async function findOperation(db: Database, operationId: string) {
  return db
    .selectFrom('instance_operations')
    .select([
      'id',
      'instance_id',
      'kind',
      'state',
      'from_status',
      'workflow_id',
      'workflow_type',
      'workflow_input',
      'actor',
      'correlation_id',
      'outcome',
      'created_at',
      'finished_at',
    ])
    .where('id', '=', operationId)
    .executeTakeFirst();
}

export async function listOperationsOfInstance(db: Database, instanceId: string, limit = 50) {
  return db
    .selectFrom('instance_operations')
    .select([
      'id',
      'kind',
      'state',
      'from_status',
      'workflow_id',
      'actor',
      'outcome',
      'created_at',
      'finished_at',
    ])
    .where('instance_id', '=', instanceId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

const OPERATION_ORDER: KeysetOrder = { at: 'created_at', id: 'id', idType: 'uuid' };

/** Newest first, by keyset (db/keyset.ts). */
export async function listOperationsPageOfInstance(db: Database, instanceId: string, request: ListRequest) {
  const base = db.selectFrom('instance_operations').where('instance_id', '=', instanceId);
  return readKeysetPage(
    db,
    OPERATION_ORDER,
    request,
    base.select(['id', 'kind', 'state', 'outcome', 'correlation_id', 'created_at', 'finished_at']),
    base,
  );
}

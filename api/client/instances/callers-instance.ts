import type { Context } from 'hono';
import type { Database } from '../../../db/database.js';
import { findInstanceOfUser, type Instance } from '../../../db/repositories/instances.js';
import { notFound } from '../../../domain/errors.js';
import type { PageRequest } from '../../../domain/pagination.js';
import type { AppEnv } from '../../context.js';
import { customerId } from '../../principals.js';
import { listBody } from '../../schemas.js';

/** The caller's instance, or the standard 404: an unknown and a foreign instance answer alike. */
export async function callersInstance(c: Context<AppEnv>, instanceId: string): Promise<Instance> {
  const instance = await findInstanceOfUser(c.get('deps').db, customerId(c), instanceId);
  if (!instance) throw notFound();
  return instance;
}

/**
 * A page of what one of the caller's instances holds (its backups, snapshots, schedules, log):
 * the instance found or 404, the page read, each row serialized, in the list envelope.
 */
export async function pageOfInstance<Row, Item>(
  c: Context<AppEnv>,
  instanceId: string,
  query: { page: number; per_page: number },
  read: (db: Database, instanceId: string, page: PageRequest) => Promise<{ rows: Row[]; total: number }>,
  serialize: (row: Row) => Item,
) {
  const instance = await callersInstance(c, instanceId);
  const request = { page: query.page, perPage: query.per_page };
  const { rows, total } = await read(c.get('deps').db, instance.id, request);
  return listBody(request, total, rows.map(serialize));
}

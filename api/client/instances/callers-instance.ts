import type { Context } from 'hono';
import { findInstanceOfUser, type Instance } from '../../../db/repositories/instances/instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { customerId } from '../../auth/principals.js';

/** The caller's instance, or the standard 404: an unknown and a foreign instance answer alike. */
export async function callersInstance(c: Context<AppEnv>, instanceId: string): Promise<Instance> {
  const instance = await findInstanceOfUser(c.get('deps').db, customerId(c), instanceId);
  if (!instance) throw notFound();
  return instance;
}

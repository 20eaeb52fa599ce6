import { findInstance, findInstanceOfUser, type Instance } from '../../db/repositories/instances.js';
import type { Asker } from '../../domain/actors.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/** The instance an asker may act on: a customer's own, any for an administrator; 404 otherwise. */
export async function instanceInReach(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  instanceId: string,
): Promise<Instance> {
  const instance =
    asker.type === 'user'
      ? await findInstanceOfUser(deps.db, asker.userId, instanceId)
      : await findInstance(deps.db, instanceId);
  if (!instance) throw notFound();
  return instance;
}

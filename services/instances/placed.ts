import { findPlacedInstance, type PlacedInstance } from '../../db/repositories/instances/all-instances.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/** Any tenant's instance with its placement and running operation, as administrators see it. */
export async function getPlacedInstance(
  deps: Pick<ServiceDeps, 'db'>,
  instanceId: string,
): Promise<PlacedInstance> {
  const instance = await findPlacedInstance(deps.db, instanceId);
  if (!instance) throw notFound();
  return instance;
}

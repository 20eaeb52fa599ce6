import { isUniqueViolation } from '../../db/errors.js';
import {
  findPlacedInstance,
  findPlacedInstanceByExternalId,
  type PlacedInstance,
} from '../../db/repositories/instances/all-instances.js';
import { setInstanceExternalId } from '../../db/repositories/instances/instances.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/** docs/api.md "External references": a billing system's id is one live instance's at most. */

const taken = (cause?: unknown) =>
  new ApiError('EXTERNAL_ID_TAKEN', { detail: 'Another instance has this external_id.', cause });

/** The refusal of a write the unique index `instances_external_id` refused; undefined for any other error. */
export const externalIdTakenBy = (error: unknown): ApiError | undefined =>
  isUniqueViolation(error, 'instances_external_id') ? taken(error) : undefined;

/**
 * Refuses an order naming an external id a live instance holds, before the order counts against
 * any limit; the unique index decides two orders at once.
 */
export async function refuseTakenExternalId(
  deps: Pick<ServiceDeps, 'db'>,
  externalId: string | null | undefined,
) {
  if (externalId && (await findPlacedInstanceByExternalId(deps.db, externalId))) throw taken();
}

/** Sets or clears (null) an instance's external id: a change of the panel's record only, no operation. */
export async function changeInstanceExternalId(
  deps: Pick<ServiceDeps, 'db'>,
  instanceId: string,
  externalId: string | null,
): Promise<PlacedInstance> {
  const changed = await setInstanceExternalId(deps.db, instanceId, externalId).catch((error: unknown) => {
    throw externalIdTakenBy(error) ?? error;
  });
  const row = changed && (await findPlacedInstance(deps.db, instanceId));
  if (!row) throw notFound();
  return row;
}

import { isUniqueViolation } from '../../db/errors.js';
import {
  deleteLocationUnlessUsed,
  insertLocation,
  type LocationRow,
  updateLocation,
} from '../../db/repositories/catalogue/locations.js';
import { findProvider } from '../../db/repositories/network/providers.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';

// An administrator's locations: where hypervisors stand and customers order instances, by code.

export interface LocationFields {
  readonly code: string;
  readonly name: string;
  /** The provider (of kind `dns`) that serves the PTR records of the location's addresses. */
  readonly dns_provider?: string | null;
}

/** The provider's id when it is one of kind `dns`, or a 400 naming `dns_provider`. */
async function checkedDnsProvider(deps: Pick<ServiceDeps, 'db'>, providerId: string | null) {
  if (providerId === null) return null;
  const provider = await findProvider(deps.db, providerId);
  if (provider?.kind !== 'dns')
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'dns_provider', detail: 'Must be the uuid of a provider of kind dns.' }],
    });
  return provider.id;
}

export async function createLocation(
  deps: Pick<ServiceDeps, 'db'>,
  fields: LocationFields,
): Promise<LocationRow> {
  const dnsProvider = await checkedDnsProvider(deps, fields.dns_provider ?? null);
  try {
    return await insertLocation(deps.db, {
      code: fields.code,
      name: fields.name,
      dns_provider_id: dnsProvider,
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', { detail: 'A location with this code exists.', cause: error });
    throw error;
  }
}

/**
 * The name and the DNS provider may change; the code, which customers order by, stays. Records
 * already published by another provider are not moved: a resync of the location pushes them to
 * the new one (docs/dns.md).
 */
export async function editLocation(
  deps: Pick<ServiceDeps, 'db'>,
  locationId: string,
  fields: { name?: string; dns_provider?: string | null },
): Promise<LocationRow> {
  const row = await updateLocation(deps.db, locationId, {
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.dns_provider === undefined
      ? {}
      : { dns_provider_id: await checkedDnsProvider(deps, fields.dns_provider) }),
  });
  if (!row) throw notFound();
  return row;
}

/** Refused while anything refers to the location: nothing is half-deleted. */
export async function deleteLocation(deps: Pick<ServiceDeps, 'db'>, locationId: string): Promise<void> {
  const outcome = await deleteLocationUnlessUsed(deps.db, locationId);
  if (outcome === 'missing') throw notFound();
  if (outcome !== 'deleted')
    throw inUse('location', [
      [outcome.hypervisors, 'hypervisor'],
      [outcome.ip_pools, 'IP pool'],
      [outcome.instances, 'instance'],
      [outcome.private_networks, 'private network'],
    ]);
}

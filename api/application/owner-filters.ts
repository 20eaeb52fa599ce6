import type { Database } from '../../db/database.js';
import { findLocationByCode } from '../../db/repositories/catalogue/catalog.js';
import { PageQuery } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { catalogueCode } from '../routes-kit/instance-order.js';

/** The query of a list of customers' resources: a page, and whose and where. */
export const OwnerLocationQuery = PageQuery.extend({
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s.' }),
  location: catalogueCode.optional().openapi({ description: 'Only this location’s (its code).' }),
});

/**
 * Lists with the user and location filters; the location comes as a code, and a code no location
 * has answers an empty page rather than every location's.
 */
export async function listByOwnerAndLocation<Row>(
  db: Database,
  query: { user?: string; location?: string },
  list: (filters: { userId?: string; locationId?: string }) => Promise<{ rows: Row[]; total: number }>,
): Promise<{ rows: Row[]; total: number }> {
  if (query.location === undefined) return list({ userId: query.user });
  const location = await findLocationByCode(db, query.location);
  if (!location) return { rows: [], total: 0 };
  return list({ userId: query.user, locationId: location.id });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listAddressReservations } from '../../../db/repositories/hypervisors/reservation-lists.js';
import { ADDRESS_HOLDERS } from '../../../domain/reservations.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import {
  AddressReservationEnvelope,
  serializeAddressReservation,
} from '../../../wire/serializers/hypervisors/reservation.js';
import { z } from '../../../wire/zod.js';

const Query = keysetQuery({
  location: z.string().uuid().optional().openapi({ description: 'Addresses of this location’s pools.' }),
  pool: z.string().uuid().optional().openapi({ description: 'Addresses of this pool.' }),
  instance: z.string().uuid().optional().openapi({ description: 'Addresses on this instance.' }),
  user: z.string().uuid().optional().openapi({ description: 'Addresses of this user’s account.' }),
  held_by: z.enum(ADDRESS_HOLDERS).optional(),
});

const route = createRoute({
  method: 'get',
  path: '/reservations/addresses',
  tags: ['Reservations'],
  summary: 'List address reservations',
  description:
    'Every address taken from a pool, newest first, with its pool and what holds it: the instance it is ' +
    'on, or the account it belongs to. Filtered by `location`, `pool`, `instance`, `user` and `held_by` ' +
    '(combined). Paginated with `page` and `per_page`, or read on with `cursor`.',
  request: { query: Query },
  responses: {
    200: jsonContent(
      keysetListEnvelope(AddressReservationEnvelope, 'AddressReservationList'),
      'A page of addresses.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const request = listRequestOf(query);
    const page = await listAddressReservations(
      c.get('deps').db,
      {
        locationId: query.location,
        poolId: query.pool,
        instanceId: query.instance,
        userId: query.user,
        heldBy: query.held_by,
      },
      request,
    );
    return c.json(keysetListBody(request, page, page.rows.map(serializeAddressReservation)), 200);
  });
}

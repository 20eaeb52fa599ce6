import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listCapacityReservations } from '../../../db/repositories/hypervisors/reservation-lists.js';
import { RESERVATION_PURPOSES, RESERVATION_STATES } from '../../../domain/reservations.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import {
  CapacityReservationEnvelope,
  serializeCapacityReservation,
} from '../../../wire/serializers/hypervisors/reservation.js';
import { z } from '../../../wire/zod.js';

const Query = keysetQuery({
  hypervisor: z.string().uuid().optional().openapi({ description: 'Room held on this hypervisor.' }),
  instance: z.string().uuid().optional().openapi({ description: 'Room held for this instance.' }),
  purpose: z.enum(RESERVATION_PURPOSES).optional(),
  state: z.enum(RESERVATION_STATES).optional(),
});

const route = createRoute({
  method: 'get',
  path: '/reservations',
  tags: ['Reservations'],
  summary: 'List capacity reservations',
  description:
    'Room held on hypervisors, newest first, each with what holds it: an instance (`purpose` `instance`, ' +
    'its place) or a migration (`migration`, its place on the target until it commits or rolls back). ' +
    '`active` ones count against a hypervisor’s free room. Filtered by `hypervisor`, `instance`, ' +
    '`purpose` and `state` (combined). Paginated with `page` and `per_page`, or read on with `cursor`.',
  request: { query: Query },
  responses: {
    200: jsonContent(
      keysetListEnvelope(CapacityReservationEnvelope, 'CapacityReservationList'),
      'A page of reservations.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const request = listRequestOf(query);
    const page = await listCapacityReservations(
      c.get('deps').db,
      {
        hypervisorId: query.hypervisor,
        instanceId: query.instance,
        purpose: query.purpose,
        state: query.state,
      },
      request,
    );
    return c.json(keysetListBody(request, page, page.rows.map(serializeCapacityReservation)), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findHypervisor } from '../../../db/repositories/hypervisors/hypervisors.js';
import { listUnknownGuests } from '../../../db/repositories/hypervisors/unknown-guests.js';
import { notFound } from '../../../domain/errors.js';
import { POWER_STATES } from '../../../domain/instances/statuses.js';
import type { AppEnv } from '../../../http/context.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const UnknownGuest = z
  .object({
    object: z.literal('unknown_guest'),
    attributes: z.object({
      uuid: z.string().uuid().openapi({ description: 'The id the agent holds the guest by.' }),
      power_state: z.enum(POWER_STATES),
      first_seen_at: z.string(),
      last_seen_at: z.string(),
    }),
  })
  .openapi('UnknownGuest');

const UnknownGuestList = listEnvelope(UnknownGuest, 'UnknownGuestList');

const route = createRoute({
  method: 'get',
  path: '/hypervisors/{hypervisor}/unknown-guests',
  tags: ['Hypervisors'],
  summary: 'Guests the hypervisor holds that the panel does not know',
  description:
    'From its agent’s latest inventory: guests that name no instance of the panel (never created by it, or ' +
    'left behind by a deleted one), oldest sighting first. Each was also written to the activity log ' +
    '(`hypervisor.unknown_guest`) when first seen. The panel never touches them: stop or remove them on the host ' +
    'once you know what they are. A guest of an instance placed on another hypervisor (a migration’s copy) is ' +
    'not listed. Every guest of one hypervisor on one page.',
  request: { params: uuidParam('hypervisor') },
  responses: {
    200: jsonContent(UnknownGuestList, 'The unknown guests.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const hypervisorId = c.req.valid('param').hypervisor;
    if (!(await findHypervisor(db, hypervisorId))) throw notFound();
    const rows = await listUnknownGuests(db, hypervisorId);
    return c.json(
      // One page holding them all: a hypervisor's inventory is bounded by what one report may carry.
      listBody(
        { page: 1, perPage: Math.max(rows.length, 1) },
        rows.length,
        rows.map((r) => ({
          object: 'unknown_guest' as const,
          attributes: {
            uuid: r.guest_uuid,
            power_state: r.power_state,
            first_seen_at: r.first_seen_at.toISOString(),
            last_seen_at: r.last_seen_at.toISOString(),
          },
        })),
      ),
      200,
    );
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { POWER_STATES } from '../../domain/instances/statuses.js';
import type { AppEnv } from '../../http/context.js';
import { acceptInventory } from '../../services/agents/inventory.js';
import { commonErrors, jsonBody, jsonContent } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { agentActor } from '../auth/principals.js';

const MAX_GUESTS = 4096;

const InventoryRequest = z
  .strictObject({
    guests: z
      .array(
        z.strictObject({
          instance_uuid: z.string().uuid(),
          power_state: z.enum(POWER_STATES),
          hot_ceiling: z
            .strictObject({
              cpu_cores: z.number().int().positive().max(1024),
              memory_mb: z.number().int().positive(),
            })
            .nullable()
            .optional()
            .openapi({
              description:
                'A running guest only: the most vCPUs and memory it can take while it runs, as its process was ' +
                'booted (less than the room it was given where it booted from its CD-ROM); null: none. Absent: ' +
                'not said (the panel keeps what it holds).',
            }),
        }),
      )
      .max(MAX_GUESTS)
      .refine((guests) => new Set(guests.map((g) => g.instance_uuid)).size === guests.length, {
        message: 'Each guest once.',
      }),
  })
  .openapi('InventoryRequest');

const InventoryAck = z
  .object({
    object: z.literal('agent_inventory_ack'),
    attributes: z.object({
      received: z.number().int(),
      corrected: z
        .number()
        .int()
        .openapi({ description: 'Instances whose status or guest flag this report changed.' }),
      unknown: z.number().int().openapi({ description: 'Guests that name no instance of the panel.' }),
      deferred: z
        .number()
        .int()
        .openapi({
          description:
            'Instances the report contradicts whose record changed within GUEST_INVENTORY_SETTLE_MS: left for a ' +
            'later report. While it is above 0, send the next look even if nothing changed.',
        }),
    }),
  })
  .openapi('InventoryAck');

const route = createRoute({
  method: 'post',
  path: '/inventory',
  tags: ['Agent'],
  summary: 'The guests the hypervisor holds',
  description:
    `Every guest the hypervisor really holds (up to ${MAX_GUESTS}), with its power state: send it at start, whenever ` +
    'it changes, and at least every few minutes. The panel compares it with the instances placed on this ' +
    'hypervisor, leaving out any under a running operation or migration and any whose record changed within ' +
    'GUEST_INVENTORY_SETTLE_MS: an instance with no guest here goes to `error` with `guest_drift: "missing"`, a ' +
    'running one whose guest is stopped to `stopped` with `guest_drift: "stopped"`, and a later inventory that ' +
    'shows the guest running puts it back to `running` and clears the flag. Each change is an activity entry. ' +
    "A running guest's `hot_ceiling` becomes its instance's room to grow (what a plan change's dry run reads), " +
    'the same exceptions aside. ' +
    'A guest that names no instance is listed for administrators (`GET /hypervisors/{uuid}/unknown-guests`). ' +
    'Nothing is started, stopped or deleted on the hypervisor. The same inventory twice changes nothing more.',
  request: { body: jsonBody(InventoryRequest) },
  responses: { 200: jsonContent(InventoryAck, 'Compared.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { guests } = c.req.valid('json');
    const outcome = await acceptInventory(
      { ...c.get('deps'), logger: c.get('logger') },
      agentActor(c),
      guests.map((g) => ({
        instanceId: g.instance_uuid,
        powerState: g.power_state,
        ...(g.hot_ceiling !== undefined && { hotCeiling: g.hot_ceiling }),
      })),
    );
    return c.json({ object: 'agent_inventory_ack' as const, attributes: outcome }, 200);
  });
}

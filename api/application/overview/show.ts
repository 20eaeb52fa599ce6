import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { planeOverview } from '../../../services/overview.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const Counts = z.record(z.string(), z.number().int());
const Resources = z.object({ cpu_cores: z.number().int(), memory_mb: z.number(), disk_mb: z.number() });

const OverviewEnvelope = z
  .object({
    object: z.literal('overview'),
    attributes: z.object({
      instances: Counts.openapi({
        description: 'Instances not deleted, by status.',
        example: { running: 12 },
      }),
      hypervisors: Counts.openapi({ description: 'By status.', example: { online: 3, unreachable: 1 } }),
      hypervisors_in_maintenance: z.number().int(),
      migrations: Counts.openapi({ description: 'Migrations under way, by state.' }),
      agent_tasks: Counts.openapi({ description: 'Live agent tasks (queued, leased, running), by status.' }),
      locations: z.array(
        z.object({
          uuid: z.string().uuid(),
          code: z.string(),
          hypervisors_online: z.number().int(),
          total: Resources.openapi({ description: 'The size of its online hypervisors.' }),
          used: Resources.openapi({ description: 'What active reservations hold on them.' }),
          free: Resources,
        }),
      ),
      hypervisors_unreachable: z.array(
        z.object({ uuid: z.string().uuid(), name: z.string(), last_seen_at: z.string().nullable() }),
      ),
      migrations_recovery_required: z.array(
        z.object({ uuid: z.string().uuid(), instance_uuid: z.string().uuid(), since: z.string() }),
      ),
    }),
  })
  .openapi('Overview');

const route = createRoute({
  method: 'get',
  path: '/overview',
  tags: ['Overview'],
  summary: 'The plane at a glance',
  description:
    'Counts by status, capacity used and free per location (online hypervisors only), and what waits for ' +
    'an operator: unreachable hypervisors and migrations in `RECOVERY_REQUIRED`, oldest first, 100 of each at ' +
    'most. Finished agent tasks and migrations are not counted here (their lists are).',
  responses: { 200: jsonContent(OverviewEnvelope, 'The overview.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { counts, locations, attention } = await planeOverview(c.get('deps'));
    return c.json(
      {
        object: 'overview' as const,
        attributes: {
          instances: counts.instances,
          hypervisors: counts.hypervisors,
          hypervisors_in_maintenance: counts.hypervisorsInMaintenance,
          migrations: counts.migrations,
          agent_tasks: counts.tasks,
          locations: locations.map(({ id, ...rest }) => ({ uuid: id, ...rest })),
          hypervisors_unreachable: attention.unreachable.map((h) => ({
            uuid: h.id,
            name: h.name,
            last_seen_at: h.last_seen_at?.toISOString() ?? null,
          })),
          migrations_recovery_required: attention.recovery.map((m) => ({
            uuid: m.id,
            instance_uuid: m.instance_id,
            since: m.updated_at.toISOString(),
          })),
        },
      },
      200,
    );
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { freeOf } from '../../../domain/placement.js';
import type { AppEnv } from '../../../http/context.js';
import { schedulerDryRun } from '../../../services/scheduler/dry-run.js';
import { commonErrors, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const Resources = z.object({
  cpu_cores: z.number().int(),
  memory_mb: z.number().int(),
  disk_mb: z.number().int(),
});

const DryRunBody = z
  .strictObject({ plan_uuid: z.string().uuid(), location_uuid: z.string().uuid() })
  .openapi('SchedulerDryRunRequest');

const DryRunEnvelope = z
  .object({
    object: z.literal('scheduler_dry_run'),
    attributes: z.object({
      need: Resources,
      chosen_hypervisor_uuid: z.string().uuid().nullable(),
      detail: z
        .string()
        .nullable()
        .openapi({ description: 'When nothing fits: what an order would be told.' }),
      hypervisors: z.array(
        z.object({
          uuid: z.string().uuid(),
          name: z.string(),
          status: z.string(),
          maintenance: z.boolean(),
          free: Resources,
          verdict: z.enum(['fits', 'offline', 'maintenance', 'capacity']),
          reasons: z.array(z.string()).openapi({ example: ['needs 4096 MB of memory, 2048 free'] }),
          rank: z
            .number()
            .int()
            .nullable()
            .openapi({ description: 'The order create tries it in (1 first).' }),
        }),
      ),
    }),
  })
  .openapi('SchedulerDryRun');

const route = createRoute({
  method: 'post',
  path: '/scheduler/dry-run',
  tags: ['Scheduler'],
  summary: 'Where a plan would land now',
  description:
    'Runs the placement an order runs, changing nothing: every hypervisor of the location with its verdict ' +
    '(`fits`, `offline`, `maintenance`, `capacity`), the reasons, and the order create would try the fitting ' +
    'ones in (most free memory first). An order placed a moment later may find another answer.',
  request: { body: jsonBody(DryRunBody) },
  responses: { 200: jsonContent(DryRunEnvelope, 'The verdicts.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { plan_uuid, location_uuid } = c.req.valid('json');
    const run = await schedulerDryRun(c.get('deps'), { planId: plan_uuid, locationId: location_uuid });
    return c.json(
      {
        object: 'scheduler_dry_run' as const,
        attributes: {
          need: run.need,
          chosen_hypervisor_uuid: run.chosen,
          detail: run.detail,
          hypervisors: run.hypervisors.map(({ candidate, verdict, reasons, rank }) => ({
            uuid: candidate.id,
            name: candidate.name,
            status: candidate.status,
            maintenance: candidate.maintenance,
            free: freeOf(candidate),
            verdict,
            reasons,
            rank,
          })),
        },
      },
      200,
    );
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listSamples } from '../../../db/repositories/metrics.js';
import { ApiError } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { z } from '../../zod.js';
import { callersInstance } from './callers-instance.js';

const MAX_SAMPLES = 2000;
const DEFAULT_WINDOW_MS = 60 * 60 * 1000;

const Sample = z.object({
  sampled_at: z.string(),
  cpu_percent: z.number(),
  memory_used_mb: z.number().int(),
  disk_read_bytes: z.number().int(),
  disk_write_bytes: z.number().int(),
  net_rx_bytes: z.number().int(),
  net_tx_bytes: z.number().int(),
});

const MetricsEnvelope = z
  .object({
    object: z.literal('instance_metrics'),
    attributes: z.object({
      instance_uuid: z.string().uuid(),
      since: z.string(),
      until: z.string(),
      samples: z.array(Sample),
    }),
  })
  .openapi('InstanceMetrics');

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/metrics',
  tags: ['Instances'],
  summary: 'Metrics series',
  description:
    'Samples reported by the hypervisor, oldest first, between `since` and `until` (ISO 8601; default: the last ' +
    `hour), at most ${MAX_SAMPLES}. Samples are kept for METRICS_RETENTION_HOURS. CPU is in percent of one core.`,
  request: {
    params: uuidParam('cloudInstance'),
    query: z.object({
      since: z.string().datetime({ offset: true }).optional(),
      until: z.string().datetime({ offset: true }).optional(),
    }),
  },
  responses: { 200: jsonContent(MetricsEnvelope, 'The series.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const { cloudInstance } = c.req.valid('param');
    const query = c.req.valid('query');
    const until = query.until ? new Date(query.until) : new Date();
    const since = query.since ? new Date(query.since) : new Date(until.getTime() - DEFAULT_WINDOW_MS);
    if (since > until) {
      throw new ApiError('SVC-REQ-400', {
        fields: [{ field: 'since', detail: 'since must not be after until.' }],
      });
    }
    const instance = await callersInstance(c, cloudInstance);
    const rows = await listSamples(db, instance.id, since, until, MAX_SAMPLES);
    return c.json(
      {
        object: 'instance_metrics' as const,
        attributes: {
          instance_uuid: instance.id,
          since: since.toISOString(),
          until: until.toISOString(),
          samples: rows.map((r) => ({
            sampled_at: r.sampled_at.toISOString(),
            cpu_percent: r.cpu_percent,
            memory_used_mb: r.memory_used_mb,
            disk_read_bytes: Number(r.disk_read_bytes),
            disk_write_bytes: Number(r.disk_write_bytes),
            net_rx_bytes: Number(r.net_rx_bytes),
            net_tx_bytes: Number(r.net_tx_bytes),
          })),
        },
      },
      200,
    );
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../../domain/errors.js';
import { MAX_POINTS, METRIC_RESOLUTIONS } from '../../../domain/metrics/resolutions.js';
import type { AppEnv } from '../../../http/context.js';
import { readMetricSeries } from '../../../services/instances/metric-series.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';
import { callersInstance } from './callers-instance.js';

const DEFAULT_WINDOW_MS = 60 * 60 * 1000;

const Sample = z.object({
  sampled_at: z
    .string()
    .openapi({ description: 'The sample’s time; for a rollup, the start of its bucket.' }),
  sample_count: z.number().int().openapi({ description: 'Raw samples in the point: 1 for a raw sample.' }),
  cpu_percent: z.number().openapi({ description: 'Average over the point’s samples.' }),
  cpu_percent_max: z.number().openapi({ description: 'Highest of the point’s samples.' }),
  memory_used_mb: z.number().int().openapi({ description: 'Average over the point’s samples.' }),
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
      resolution: z.enum(METRIC_RESOLUTIONS),
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
    'The instance’s series, oldest first, between `since` and `until` (ISO 8601; default: the last hour), at ' +
    `most ${MAX_POINTS} points. Raw samples (the agent’s interval, 60 s by default) are kept for ` +
    'METRICS_RETENTION_HOURS (48); 5-minute and 1-hour rollups for METRICS_5M_RETENTION_DAYS (14) and ' +
    'METRICS_1H_RETENTION_DAYS (400). Without `resolution`, the series is read at the finest resolution that ' +
    'still holds `since` and fits the range: raw up to a day, 5-minute up to about 6.9 days, 1-hour beyond (cut ' +
    `at ${MAX_POINTS} hours; ask again from the last point). A rollup point starts at its bucket’s start; its ` +
    'CPU and memory are averages over its samples, its byte counts their sums. CPU is in percent of one core.',
  request: {
    params: uuidParam('cloudInstance'),
    query: z.object({
      since: z.string().datetime({ offset: true }).optional(),
      until: z.string().datetime({ offset: true }).optional(),
      resolution: z
        .enum(METRIC_RESOLUTIONS)
        .optional()
        .openapi({ description: 'Read at this resolution; without it, the one the range calls for.' }),
    }),
  },
  responses: { 200: jsonContent(MetricsEnvelope, 'The series.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
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
    const series = await readMetricSeries(c.get('deps'), instance.id, { since, until }, query.resolution);
    return c.json(
      {
        object: 'instance_metrics' as const,
        attributes: {
          instance_uuid: instance.id,
          since: since.toISOString(),
          until: until.toISOString(),
          resolution: series.resolution,
          samples: series.points.map((p) => ({
            sampled_at: p.sampledAt.toISOString(),
            sample_count: p.sampleCount,
            cpu_percent: p.cpuPercent,
            cpu_percent_max: p.cpuPercentMax,
            memory_used_mb: p.memoryUsedMb,
            disk_read_bytes: p.diskReadBytes,
            disk_write_bytes: p.diskWriteBytes,
            net_rx_bytes: p.netRxBytes,
            net_tx_bytes: p.netTxBytes,
          })),
        },
      },
      200,
    );
  });
}

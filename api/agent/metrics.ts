import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { int4, real } from '../../domain/input-bounds.js';
import type { AppEnv } from '../../http/context.js';
import { acceptMetrics } from '../../services/agents/metrics.js';
import { commonErrors, jsonBody, jsonContent } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { agentActor } from '../auth/principals.js';

// bigint columns: JSON numbers stay exact up to 2^53.
const counter = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const MAX_SAMPLES = 1000;

const MetricsRequest = z
  .strictObject({
    samples: z
      .array(
        z.strictObject({
          instance_uuid: z.string().uuid(),
          sampled_at: z.string().datetime({ offset: true }),
          cpu_percent: real(0, 100_000),
          memory_used_mb: int4(),
          disk_read_bytes: counter,
          disk_write_bytes: counter,
          net_rx_bytes: counter,
          net_tx_bytes: counter,
        }),
      )
      .max(MAX_SAMPLES),
  })
  .openapi('MetricsRequest');

const MetricsAck = z
  .object({
    object: z.literal('agent_metrics_ack'),
    attributes: z.object({ received: z.number().int(), stored: z.number().int() }),
  })
  .openapi('MetricsAck');

const route = createRoute({
  method: 'post',
  path: '/metrics',
  tags: ['Agent'],
  summary: 'Per-instance samples',
  description:
    `Up to ${MAX_SAMPLES} samples per call: CPU (percent of one core, so up to 100 × cores), memory in use, and ` +
    'disk and network byte counts for the sample interval. Samples of instances not on this hypervisor, samples ' +
    'dated more than five minutes ahead, and repeats of a stored (instance, sampled_at) are dropped. Each stored ' +
    'sample is added to its instance’s 5-minute and 1-hour rollups; raw samples are kept for ' +
    'METRICS_RETENTION_HOURS, the rollups longer (the Client API’s metrics series). The network bytes of each stored sample add to the instance’s bandwidth ' +
    'of the month the sample is dated.',
  request: { body: jsonBody(MetricsRequest) },
  responses: { 202: jsonContent(MetricsAck, 'Accepted.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { samples } = c.req.valid('json');
    const ack = await acceptMetrics(
      c.get('deps'),
      agentActor(c),
      samples.map((s) => ({
        instanceId: s.instance_uuid,
        sampledAt: new Date(s.sampled_at),
        cpuPercent: s.cpu_percent,
        memoryUsedMb: s.memory_used_mb,
        diskReadBytes: s.disk_read_bytes,
        diskWriteBytes: s.disk_write_bytes,
        netRxBytes: s.net_rx_bytes,
        netTxBytes: s.net_tx_bytes,
      })),
    );
    return c.json({ object: 'agent_metrics_ack' as const, attributes: ack }, 202);
  });
}

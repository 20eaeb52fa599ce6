import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listBandwidth } from '../../../db/repositories/metrics/bandwidth.js';
import { BANDWIDTH_HISTORY_PERIODS, billingPeriodOf } from '../../../domain/networks/bandwidth.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { BandwidthEnvelope, serializeBandwidth } from '../../../wire/serializers/network/bandwidth.js';
import { callersInstance } from './callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/bandwidth',
  tags: ['Network'],
  summary: 'Bandwidth usage',
  description:
    'Traffic per billing period, a calendar month in UTC: the current month’s running total and up to ' +
    `${BANDWIDTH_HISTORY_PERIODS} earlier months, inbound (received by the instance) and outbound (sent by it) ` +
    'apart. It is summed from the hypervisor’s samples as they arrive (each counts in the month it is dated), ' +
    'so the current month lags by at most the agent’s sampling interval.',
  request: { params: uuidParam('cloudInstance') },
  responses: { 200: jsonContent(BandwidthEnvelope, 'The usage.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    const instance = await callersInstance(c, cloudInstance);
    const now = new Date();
    const since = billingPeriodOf(now, -BANDWIDTH_HISTORY_PERIODS).startsAt;
    const rows = await listBandwidth(c.get('deps').db, instance.id, since);
    return c.json(serializeBandwidth(instance, rows, now), 200);
  });
}

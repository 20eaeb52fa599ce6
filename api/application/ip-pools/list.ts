import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listIpPools } from '../../../db/repositories/network/ip-pools.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import { IpPoolEnvelope, serializeIpPool } from '../../../wire/serializers/network/ip-pool.js';
import { IpPoolListQuery } from './fields.js';

const route = createRoute({
  method: 'get',
  path: '/ip-pools',
  tags: ['IP pools'],
  summary: 'List IP pools',
  description:
    'The address pools, by location and range, each with how many addresses it hands out and holds. ' +
    'Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
  request: { query: IpPoolListQuery },
  responses: {
    200: jsonContent(listEnvelope(IpPoolEnvelope, 'IpPoolList'), 'A page of pools.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, location_uuid } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listIpPools(c.get('deps').db, request, { locationId: location_uuid });
    return c.json(listBody(request, total, rows.map(serializeIpPool)), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findIpPool, listPoolAddresses } from '../../../db/repositories/ip-pools.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../wire/schemas.js';
import { PoolAddressEnvelope, serializePoolAddress } from '../../../wire/serializers/ip-pool.js';

const route = createRoute({
  method: 'get',
  path: '/ip-pools/{pool}/addresses',
  tags: ['IP pools'],
  summary: 'List a pool’s taken addresses',
  description:
    'Each address the pool has handed out, by address, with the instance and account holding it. ' +
    'Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
  request: { params: uuidParam('pool'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(PoolAddressEnvelope, 'PoolAddressList'), 'A page of addresses.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const { pool } = c.req.valid('param');
    if (!(await findIpPool(db, pool))) throw notFound();
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listPoolAddresses(db, pool, request);
    return c.json(listBody(request, total, rows.map(serializePoolAddress)), 200);
  });
}

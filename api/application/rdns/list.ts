import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findLocationByCode } from '../../../db/repositories/catalog.js';
import { listReverseRecords } from '../../../db/repositories/reverse-dns.js';
import type { AppEnv } from '../../context.js';
import { catalogueCode } from '../../instance-order.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../schemas.js';
import { ReverseRecordEnvelope, serializeReverseRecord } from '../../serializers/reverse-record.js';
import { z } from '../../zod.js';

const Query = PageQuery.extend({
  location: catalogueCode.optional().openapi({ description: 'Only this location’s (its code).' }),
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s addresses.' }),
});

const route = createRoute({
  method: 'get',
  path: '/rdns',
  tags: ['Reverse DNS'],
  summary: 'List reverse DNS records',
  description:
    'Every address that has a reverse DNS name, ordered by address: what the location’s DNS serves as PTR ' +
    'records (an IPv6 address has a record of its own); paginated.',
  request: { query: Query },
  responses: {
    200: jsonContent(listEnvelope(ReverseRecordEnvelope, 'ReverseRecordList'), 'A page of records.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, user, location } = c.req.valid('query');
    const db = c.get('deps').db;
    const request = { page, perPage: per_page };
    const locationId =
      location === undefined ? undefined : ((await findLocationByCode(db, location))?.id ?? '');
    const { rows, total } =
      locationId === ''
        ? { rows: [], total: 0 }
        : await listReverseRecords(db, { userId: user, locationId }, request);
    return c.json(listBody(request, total, rows.map(serializeReverseRecord)), 200);
  });
}

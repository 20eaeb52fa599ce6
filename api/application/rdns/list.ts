import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listReverseRecords } from '../../../db/repositories/reverse-dns.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import { ReverseRecordEnvelope, serializeReverseRecord } from '../../../wire/serializers/reverse-record.js';
import { listByOwnerAndLocation, OwnerLocationQuery } from '../owner-filters.js';

const route = createRoute({
  method: 'get',
  path: '/rdns',
  tags: ['Reverse DNS'],
  summary: 'List reverse DNS records',
  description:
    'Every address that has a reverse DNS name, ordered by address: what the location’s DNS serves as PTR ' +
    'records (an IPv6 address has a record of its own); paginated.',
  request: { query: OwnerLocationQuery },
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
    const { rows, total } = await listByOwnerAndLocation(db, { user, location }, (filters) =>
      listReverseRecords(db, filters, request),
    );
    return c.json(listBody(request, total, rows.map(serializeReverseRecord)), 200);
  });
}

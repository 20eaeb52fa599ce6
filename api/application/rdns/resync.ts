import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { resyncReverseDns } from '../../../services/networks/reverse-dns.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import {
  ReverseDnsResyncEnvelope,
  serializeReverseDnsResync,
} from '../../../wire/serializers/network/reverse-record.js';

const route = createRoute({
  method: 'post',
  path: '/locations/{location}/rdns/resync',
  tags: ['Reverse DNS'],
  summary: 'Resync a location’s reverse zones',
  description:
    'Pushes every address of the location to its DNS provider again (a name as a PTR record, no name as ' +
    'none), after removing, within the zones the provider serves, the PTR records of addresses the panel ' +
    'has no name for (released addresses, records made elsewhere). Each record goes `pending`, then ' +
    '`published` or `failed` as the DNS server answers (`GET /rdns`). Also the way to move a location’s ' +
    'records to a newly named provider.',
  request: { params: uuidParam('location') },
  responses: {
    202: jsonContent(ReverseDnsResyncEnvelope, 'The resync is under way.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The location names no DNS provider (SVC-CONFLICT-409).'),
    ...unavailableResponse('The publishing workflow could not be started (SVC-SYS-503); try again.'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const locationId = c.req.valid('param').location;
    const records = await resyncReverseDns(c.get('deps'), { locationId, correlationId: c.get('requestId') });
    return c.json(serializeReverseDnsResync(locationId, records), 202);
  });
}

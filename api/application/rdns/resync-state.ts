import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findLocation } from '../../../db/repositories/catalogue/locations.js';
import { findPrune } from '../../../db/repositories/network/reverse-dns-resyncs.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  ReverseDnsResyncStateEnvelope,
  serializeReverseDnsResyncState,
} from '../../../wire/serializers/network/rdns-resync-state.js';

const route = createRoute({
  method: 'get',
  path: '/locations/{location}/rdns/resync',
  tags: ['Reverse DNS'],
  summary: 'Show how a location’s last resync went',
  description:
    'Whether the last resync removed the PTR records of the provider’s zones that the panel has no name ' +
    'for, how many, or why not (a server that refuses the zone transfer is `failed`, `rejected`). The ' +
    'records themselves are in `GET /rdns`.',
  request: { params: uuidParam('location') },
  responses: {
    200: jsonContent(ReverseDnsResyncStateEnvelope, 'The last resync.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const db = c.get('deps').db;
    const location = await findLocation(db, c.req.valid('param').location);
    if (!location) throw notFound();
    return c.json(serializeReverseDnsResyncState(location.id, await findPrune(db, location.id)), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { reverseName } from '../../../domain/networks/reverse-dns.js';
import type { AppEnv } from '../../../http/context.js';
import { setAnyReverseDns } from '../../../services/networks/reverse-dns.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  ReverseRecordEnvelope,
  serializeReverseRecord,
} from '../../../wire/serializers/network/reverse-record.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const Body = z
  .object({
    rdns: reverseName.nullable().openapi({
      example: 'mail.example.com',
      description:
        'A fully qualified hostname, kept in lower case (as the Client API takes it); null removes it.',
    }),
  })
  .strict()
  .openapi('AdminReverseDnsRequest');

const route = createRoute({
  method: 'put',
  path: '/rdns/{ipAddress}',
  tags: ['Reverse DNS'],
  summary: 'Set or remove an address’s reverse DNS',
  description:
    'Any address of the pools: a customer’s (which they may change again), a floating IP on no instance. ' +
    'Recorded in the owner’s activity log (`ip_address.rdns_set`) with the administrator as the actor.',
  request: { params: uuidParam('ipAddress'), body: jsonBody(Body) },
  responses: {
    200: jsonContent(ReverseRecordEnvelope, 'The record as it is now.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const record = await setAnyReverseDns(c.get('deps'), adminActor(c), {
      addressId: c.req.valid('param').ipAddress,
      rdns: c.req.valid('json').rdns,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeReverseRecord(record), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { reverseName } from '../../../../domain/networks/reverse-dns.js';
import type { AppEnv } from '../../../../http/context.js';
import { setReverseDns } from '../../../../services/networks/reverse-dns.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse } from '../../../../wire/schemas.js';
import { IpAddressEnvelope, serializeIpAddress } from '../../../../wire/serializers/network/ip-address.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';
import { addressParams } from './params.js';

const ReverseDnsBody = z
  .object({
    rdns: reverseName.nullable().openapi({
      example: 'mail.example.com',
      description:
        'A fully qualified hostname (labels of letters, digits and hyphens, at most 253 characters, no ' +
        'trailing dot), kept in lower case; null removes the record.',
    }),
  })
  .strict()
  .openapi('ReverseDnsRequest');

const route = createRoute({
  method: 'patch',
  path: '/{cloudInstance}/network/ips/{cloudIpAddress}/rdns',
  tags: ['Network'],
  summary: 'Set the address’s reverse DNS',
  description:
    'Sets or removes the PTR record of one address of the instance. Each address has its own record, ' +
    'an IPv6 address as much as an IPv4 one. The panel keeps the record for the location’s DNS; no ' +
    'hypervisor is involved, so the change is immediate and the instance’s status does not matter.',
  request: { params: addressParams, body: jsonBody(ReverseDnsBody) },
  responses: {
    200: jsonContent(IpAddressEnvelope, 'The address with its record.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const params = c.req.valid('param');
    const address = await setReverseDns(c.get('deps'), customerActor(c), {
      instanceId: params.cloudInstance,
      addressId: params.cloudIpAddress,
      rdns: c.req.valid('json').rdns,
    });
    return c.json(serializeIpAddress(address), 200);
  });
}

import type { InstanceAddressRow } from '../../../db/repositories/network/instance-addresses.js';
import { ADDRESS_STATES } from '../../../domain/networks/addresses.js';
import { z } from '../../zod.js';
import { rdnsPublicationFields, serializeRdnsPublication } from './rdns-publication.js';

export const IpAddressEnvelope = z
  .object({
    object: z.literal('ip_address'),
    attributes: z.object({
      uuid: z.string().uuid(),
      address: z.string().openapi({ example: '203.0.113.10' }),
      family: z.union([z.literal(4), z.literal(6)]),
      prefix: z.number().int().openapi({ description: 'The prefix length of its pool’s range.' }),
      gateway: z.string().nullable(),
      kind: z.enum(['fixed', 'floating']).openapi({
        description:
          '`fixed`: from the location’s pools, for this instance; `floating`: yours, moved between instances.',
      }),
      primary: z.boolean(),
      state: z.enum(ADDRESS_STATES).openapi({
        description: '`attaching` or `detaching` until the hypervisor has applied the change.',
      }),
      rdns: z.string().nullable().openapi({ description: 'Its reverse DNS name (PTR record).' }),
      ...rdnsPublicationFields,
      created_at: z.string(),
      updated_at: z.string(),
    }),
  })
  .openapi('IpAddress');

export function serializeIpAddress(row: InstanceAddressRow): z.infer<typeof IpAddressEnvelope> {
  return {
    object: 'ip_address',
    attributes: {
      uuid: row.id,
      address: row.address,
      family: row.family,
      prefix: row.prefix,
      gateway: row.gateway,
      kind: row.kind,
      primary: row.is_primary,
      state: row.state,
      rdns: row.rdns,
      ...serializeRdnsPublication(row),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

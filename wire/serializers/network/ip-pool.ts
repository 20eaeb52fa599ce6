import type { IpPoolRow, listPoolAddresses } from '../../../db/repositories/network/ip-pools.js';
import { poolCapacity, poolFree } from '../../../domain/networks/ip-pools.js';
import { z } from '../../zod.js';

export const IpPoolEnvelope = z
  .object({
    object: z.literal('ip_pool'),
    attributes: z.object({
      uuid: z.string().uuid(),
      location_uuid: z.string().uuid(),
      name: z.string().openapi({ example: 'FRA1 public v4' }),
      family: z.union([z.literal(4), z.literal(6)]),
      cidr: z.string().openapi({ example: '192.0.2.0/24' }),
      gateway: z.string().nullable().openapi({ example: '192.0.2.1' }),
      addresses_total: z.number().int().openapi({ description: 'How many addresses the pool can hand out.' }),
      addresses_assigned: z.number().int(),
      addresses_free: z.number().int(),
      created_at: z.string(),
    }),
  })
  .openapi('IpPool');

export function serializeIpPool(row: IpPoolRow): z.infer<typeof IpPoolEnvelope> {
  const total = poolCapacity(row);
  return {
    object: 'ip_pool',
    attributes: {
      uuid: row.id,
      location_uuid: row.location_id,
      name: row.name,
      family: row.family,
      cidr: row.cidr,
      gateway: row.gateway,
      addresses_total: total,
      addresses_assigned: row.assigned,
      addresses_free: poolFree(row),
      created_at: row.created_at.toISOString(),
    },
  };
}

type AddressRow = Awaited<ReturnType<typeof listPoolAddresses>>['rows'][number];

export const PoolAddressEnvelope = z
  .object({
    object: z.literal('ip_address'),
    attributes: z.object({
      uuid: z.string().uuid(),
      address: z.string().openapi({ example: '192.0.2.10' }),
      kind: z.enum(['fixed', 'floating']),
      is_primary: z.boolean(),
      instance_uuid: z.string().uuid().nullable().openapi({ description: 'The instance it is assigned to.' }),
      user_uuid: z.string().uuid().nullable().openapi({ description: 'The account that holds it.' }),
      rdns: z.string().nullable(),
      created_at: z.string(),
    }),
  })
  .openapi('PoolAddress');

export function serializePoolAddress(row: AddressRow): z.infer<typeof PoolAddressEnvelope> {
  return {
    object: 'ip_address',
    attributes: {
      uuid: row.id,
      address: row.address,
      kind: row.kind,
      is_primary: row.is_primary,
      instance_uuid: row.instance_id,
      user_uuid: row.user_id,
      rdns: row.rdns,
      created_at: row.created_at.toISOString(),
    },
  };
}

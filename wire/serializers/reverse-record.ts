import type { ReverseRecordRow } from '../../db/repositories/reverse-dns.js';
import { z } from '../zod.js';

export const ReverseRecordEnvelope = z
  .object({
    object: z.literal('rdns_record'),
    attributes: z.object({
      uuid: z.string().uuid().openapi({ description: 'The address’s id, as the Client API names it.' }),
      address: z.string().openapi({ example: '203.0.113.10' }),
      family: z.union([z.literal(4), z.literal(6)]),
      rdns: z.string().nullable().openapi({ description: 'Its PTR record’s name; null: none.' }),
      location: z.string(),
      kind: z.enum(['fixed', 'floating']),
      user: z.string().uuid().nullable(),
      instance: z.string().uuid().nullable(),
      updated_at: z.string(),
    }),
  })
  .openapi('ReverseRecord');

export function serializeReverseRecord(row: ReverseRecordRow): z.infer<typeof ReverseRecordEnvelope> {
  return {
    object: 'rdns_record',
    attributes: {
      uuid: row.id,
      address: row.address,
      family: row.family,
      rdns: row.rdns,
      location: row.location_code,
      kind: row.kind,
      user: row.user_id,
      instance: row.instance_id,
      updated_at: row.updated_at.toISOString(),
    },
  };
}

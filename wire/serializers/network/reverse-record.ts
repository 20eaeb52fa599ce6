import type { ReverseRecordRow } from '../../../db/repositories/network/reverse-dns.js';
import { z } from '../../zod.js';
import { rdnsPublicationFields, serializeRdnsPublication } from './rdns-publication.js';

export const ReverseRecordEnvelope = z
  .object({
    object: z.literal('rdns_record'),
    attributes: z.object({
      uuid: z.string().uuid().openapi({ description: 'The address’s id, as the Client API names it.' }),
      address: z.string().openapi({ example: '203.0.113.10' }),
      family: z.union([z.literal(4), z.literal(6)]),
      rdns: z.string().nullable().openapi({ description: 'Its PTR record’s name; null: none.' }),
      ...rdnsPublicationFields,
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
      ...serializeRdnsPublication(row),
      location: row.location_code,
      kind: row.kind,
      user: row.user_id,
      instance: row.instance_id,
      updated_at: row.updated_at.toISOString(),
    },
  };
}

/** A resync of a location's reverse zones, begun. */
export const ReverseDnsResyncEnvelope = z
  .object({
    object: z.literal('rdns_resync'),
    attributes: z.object({
      location: z.string().uuid(),
      records: z.number().int().openapi({
        description:
          'The location’s addresses to be pushed again, each `pending` until its DNS server answers.',
      }),
    }),
  })
  .openapi('ReverseDnsResync');

export const serializeReverseDnsResync = (
  locationId: string,
  records: number,
): z.infer<typeof ReverseDnsResyncEnvelope> => ({
  object: 'rdns_resync',
  attributes: { location: locationId, records },
});

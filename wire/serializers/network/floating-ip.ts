import type { FloatingIpRow } from '../../../db/repositories/network/floating-ips.js';
import { ADDRESS_STATES, floatingIpStatus } from '../../../domain/networks/addresses.js';
import { z } from '../../zod.js';
import { rdnsPublicationFields, serializeRdnsPublication } from './rdns-publication.js';

const attributes = {
  uuid: z.string().uuid(),
  address: z.string().openapi({ example: '203.0.113.77' }),
  family: z.union([z.literal(4), z.literal(6)]),
  location: z.string().openapi({ description: 'The code of the location it belongs to.' }),
  instance: z.string().uuid().nullable().openapi({ description: 'The instance it is on; null when idle.' }),
  status: z.enum(['idle', ...ADDRESS_STATES]).openapi({
    description: '`idle` on no instance; `attaching` or `detaching` while a change is under way.',
  }),
  rdns: z.string().nullable(),
  ...rdnsPublicationFields,
  created_at: z.string(),
  updated_at: z.string(),
};

export const FloatingIpEnvelope = z
  .object({ object: z.literal('floating_ip'), attributes: z.object(attributes) })
  .openapi('FloatingIp');

/** An administrator also sees whose it is. */
export const AdminFloatingIpEnvelope = z
  .object({
    object: z.literal('floating_ip'),
    attributes: z.object({ ...attributes, user: z.string().uuid().nullable() }),
  })
  .openapi('AdminFloatingIp');

export function serializeFloatingIp(row: FloatingIpRow): z.infer<typeof FloatingIpEnvelope> {
  return {
    object: 'floating_ip',
    attributes: {
      uuid: row.id,
      address: row.address,
      family: row.family,
      location: row.location_code,
      instance: row.instance_id,
      status: floatingIpStatus(row),
      rdns: row.rdns,
      ...serializeRdnsPublication(row),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

export function serializeAdminFloatingIp(row: FloatingIpRow): z.infer<typeof AdminFloatingIpEnvelope> {
  const { object, attributes } = serializeFloatingIp(row);
  return { object, attributes: { ...attributes, user: row.user_id } };
}

import { z } from '../../zod.js';

const locationAttributes = {
  uuid: z.string().uuid(),
  code: z.string().openapi({ example: 'demo-1' }),
  name: z.string().openapi({ example: 'Demo location' }),
  created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
};

/** A location as customers see it. */
export const LocationEnvelope = z
  .object({ object: z.literal('location'), attributes: z.object(locationAttributes) })
  .openapi('Location');

/** A location as administrators see it: also the provider that publishes its reverse DNS. */
export const AdminLocationEnvelope = z
  .object({
    object: z.literal('location'),
    attributes: z.object({
      ...locationAttributes,
      dns_provider: z.string().uuid().nullable().openapi({
        description: 'The provider of kind `dns` that serves its addresses’ PTR records; null: none.',
      }),
    }),
  })
  .openapi('AdminLocation');

interface LocationRow {
  id: string;
  code: string;
  name: string;
  dns_provider_id: string | null;
  created_at: Date;
}

export const serializeLocation = (row: LocationRow): z.infer<typeof LocationEnvelope> => ({
  object: 'location' as const,
  attributes: { uuid: row.id, code: row.code, name: row.name, created_at: row.created_at.toISOString() },
});

export const serializeAdminLocation = (row: LocationRow): z.infer<typeof AdminLocationEnvelope> => ({
  object: 'location' as const,
  attributes: { ...serializeLocation(row).attributes, dns_provider: row.dns_provider_id },
});

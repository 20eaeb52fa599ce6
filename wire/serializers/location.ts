import { z } from '../zod.js';

export const LocationEnvelope = z
  .object({
    object: z.literal('location'),
    attributes: z.object({
      uuid: z.string().uuid(),
      code: z.string().openapi({ example: 'demo-1' }),
      name: z.string().openapi({ example: 'Demo location' }),
      created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
    }),
  })
  .openapi('Location');

export const serializeLocation = (row: { id: string; code: string; name: string; created_at: Date }) => ({
  object: 'location' as const,
  attributes: { uuid: row.id, code: row.code, name: row.name, created_at: row.created_at.toISOString() },
});

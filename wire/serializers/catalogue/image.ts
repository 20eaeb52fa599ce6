import type { ImageRow } from '../../../db/repositories/catalogue/images.js';
import { VIRTUALIZATIONS } from '../../../domain/catalog.js';
import { z } from '../../zod.js';

export const ImageAttributes = z
  .object({
    uuid: z.string().uuid(),
    code: z.string().openapi({ example: 'debian-12' }),
    name: z.string().openapi({ example: 'Debian 12' }),
    os_family: z.string().openapi({ example: 'debian' }),
    min_disk_mb: z.number().int().openapi({ example: 2048 }),
    created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
  })
  .openapi('ImageAttributes');

export const ImageEnvelope = z
  .object({ object: z.literal('image'), attributes: ImageAttributes })
  .openapi('Image');

export function serializeImage(row: ImageRow): z.infer<typeof ImageEnvelope> {
  return {
    object: 'image',
    attributes: {
      uuid: row.id,
      code: row.code,
      name: row.name,
      os_family: row.os_family,
      min_disk_mb: row.min_disk_mb,
      created_at: row.created_at.toISOString(),
    },
  };
}

/** What an administrator sees of an image: what a customer sees, and whether customers see it at all. */
export const AdminImageEnvelope = z
  .object({
    object: z.literal('image'),
    attributes: ImageAttributes.extend({
      virtualization: z.enum(VIRTUALIZATIONS),
      is_public: z.boolean().openapi({ description: 'Whether customers see and may order it.' }),
    }),
  })
  .openapi('AdminImage');

export function serializeAdminImage(row: ImageRow): z.infer<typeof AdminImageEnvelope> {
  const { attributes } = serializeImage(row);
  return {
    object: 'image',
    attributes: { ...attributes, virtualization: row.virtualization, is_public: row.is_public },
  };
}

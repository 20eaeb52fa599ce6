import type { ImageVersionView } from '../../../db/repositories/catalogue/image-version-views.js';
import { CHECKSUM_ALGORITHMS, IMAGE_FORMATS, IMAGE_HOST_STATES } from '../../../domain/image-versions.js';
import { z } from '../../zod.js';

const ImageVersionHost = z
  .object({
    uuid: z.string().uuid().openapi({ description: 'The hypervisor.' }),
    name: z.string(),
    location: z.string().openapi({ description: 'Its location’s code.' }),
    state: z.enum(IMAGE_HOST_STATES).openapi({
      description:
        '`pending` until its fetch starts (a hypervisor offline then stays pending until the version is ' +
        'distributed again), `fetching`, `ready` once verified and in its image store, `failed` (see `error`).',
    }),
    size_mb: z.number().int().nullable().openapi({ description: 'What arrived, once ready.' }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .openapi({
        description:
          'Why its fetch failed: `IMAGE_ADDRESS_REFUSED` (the URL, or a redirect, points at an address images ' +
          'are not fetched from), `IMAGE_REDIRECTED`, `IMAGE_CHECKSUM_MISMATCH`, `IMAGE_TRUNCATED`, `IMAGE_TOO_LARGE`, ' +
          '`IMAGE_FETCH_FAILED`, `IMAGE_FETCH_TIMEOUT`, and on a QEMU hypervisor `IMAGE_FORMAT_MISMATCH` and ' +
          '`IMAGE_UNSAFE` (a qcow2 naming a backing or data file).',
      }),
    updated_at: z.string(),
  })
  .openapi('ImageVersionHost');

export const ImageVersionEnvelope = z
  .object({
    object: z.literal('image_version'),
    attributes: z.object({
      uuid: z.string().uuid(),
      image: z.string().uuid(),
      version: z.number().int().openapi({ description: '1, 2, … per image, in the order they were added.' }),
      url: z.string().openapi({ description: 'Where the hypervisors fetch it from.' }),
      checksum_algorithm: z.enum(CHECKSUM_ALGORITHMS),
      checksum: z
        .string()
        .openapi({ description: 'The digest the fetched disk must have, in lower-case hex.' }),
      format: z.enum(IMAGE_FORMATS),
      locations: z
        .array(z.string())
        .openapi({ description: 'The codes of the locations it is distributed to.' }),
      deprecated: z
        .boolean()
        .openapi({ description: 'New orders no longer take it; instances of it are untouched.' }),
      deprecated_at: z.string().nullable(),
      hypervisors: z
        .array(ImageVersionHost)
        .openapi({ description: 'Each hypervisor of its locations and its copy, by name.' }),
      created_at: z.string(),
    }),
  })
  .openapi('ImageVersion');

export function serializeImageVersion(view: ImageVersionView): z.infer<typeof ImageVersionEnvelope> {
  const { version } = view;
  return {
    object: 'image_version',
    attributes: {
      uuid: version.id,
      image: version.image_id,
      version: version.version,
      url: version.url,
      checksum_algorithm: version.checksum_algorithm,
      checksum: version.checksum,
      format: version.format,
      locations: [...view.locations],
      deprecated: version.deprecated_at !== null,
      deprecated_at: version.deprecated_at?.toISOString() ?? null,
      hypervisors: view.hosts.map((h) => ({
        uuid: h.hypervisor_id,
        name: h.hypervisor_name,
        location: h.location_code,
        state: h.state,
        size_mb: h.size_mb,
        error: h.error,
        updated_at: h.updated_at.toISOString(),
      })),
      created_at: version.created_at.toISOString(),
    },
  };
}

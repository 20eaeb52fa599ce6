import { z } from 'zod';
import { CHECKSUM_ALGORITHMS, IMAGE_FORMATS } from '../image-versions.js';
import { ISO_URL_MAX } from '../media/iso-sources.js';

/** The hypervisor's image store: versions of images fetched from their URLs and verified. */
export const IMAGE_TASKS = {
  /**
   * The version `image` (its store name, the version's id) is in this hypervisor's image store,
   * unless it is already: fetched from `url` as an ISO is (only addresses that are public or in
   * `allowed_networks`, each redirect's too; at most `max_mb`), its digest checked against
   * `checksum`, and put in place whole or not at all. The result is the size of what arrived.
   */
  'image.fetch': {
    params: z.object({
      image: z.string().uuid(),
      url: z.string().min(1).max(ISO_URL_MAX),
      checksum_algorithm: z.enum(CHECKSUM_ALGORITHMS),
      checksum: z.string().regex(/^([0-9a-f]{64}|[0-9a-f]{128})$/),
      format: z.enum(IMAGE_FORMATS),
      max_mb: z.number().int().positive(),
      allowed_networks: z.array(z.string().min(1).max(64)).max(100),
    }),
    result: z.object({ size_mb: z.number().int().nonnegative() }),
  },
  /**
   * The version `image` (its store name) is no longer in this hypervisor's image store, nor any
   * part of a fetch of it: a deleted version's copy. Refused (`IMAGE_IN_USE`, not retried at once) while a
   * guest here, or one arriving, was made from it: its boot still reads the store's image. Not
   * there is done, `removed` false. A removed version is never fetched again (`IMAGE_REMOVED`).
   */
  'image.delete': {
    params: z.object({ image: z.string().uuid() }),
    result: z.object({ removed: z.boolean() }),
  },
} as const;

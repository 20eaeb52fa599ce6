import { CATALOGUE_CODE, CATALOGUE_CODE_MESSAGE } from '../../../../domain/catalog.js';
import { CHECKSUM_ALGORITHMS, IMAGE_FORMATS } from '../../../../domain/image-versions.js';
import { ISO_URL_MAX } from '../../../../domain/media/iso-sources.js';
import { z } from '../../../../wire/zod.js';

/** A SHA-256 or SHA-512 digest in hex; which length the algorithm takes is the service's check. */
const HEX_DIGEST = /^[0-9a-fA-F]{64}([0-9a-fA-F]{64})?$/;

export const ImageVersionCreateFields = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .max(ISO_URL_MAX)
      .openapi({
        format: 'uri',
        example: 'https://cloud.debian.org/images/cloud/bookworm/latest/debian-12-generic-amd64.qcow2',
        description:
          'Where each hypervisor fetches the disk: `https` (`http` too with ISO_ALLOW_HTTP), no user name, ' +
          'password or fragment, no private, loopback, link-local or metadata address (ISO_ALLOWED_NETWORKS ' +
          'excepted), checked again by each agent at every address it connects to.',
      }),
    checksum_algorithm: z.enum(CHECKSUM_ALGORITHMS),
    checksum: z
      .string()
      .regex(HEX_DIGEST, { message: 'The disk’s digest in hex: 64 digits for sha256, 128 for sha512.' })
      .openapi({
        example: 'a3f1c0de'.repeat(8),
        description:
          'The disk’s digest in hex (64 digits for sha256, 128 for sha512), as its publisher gives it.',
      }),
    format: z
      .enum(IMAGE_FORMATS)
      .openapi({ description: 'A whole bootable disk, booted by the guest’s firmware (docs/qemu.md).' }),
    locations: z
      .array(z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE }))
      .min(1)
      .max(100)
      .optional()
      .openapi({
        description: 'The codes of the locations whose hypervisors fetch it; every location if left out.',
      }),
  })
  .openapi('ImageVersionCreate');

export const ImageVersionUpdateFields = z
  .strictObject({
    deprecated: z.boolean().openapi({
      description:
        'New orders no longer take the version (or take it again); instances made from it are untouched.',
    }),
  })
  .openapi('ImageVersionUpdate');

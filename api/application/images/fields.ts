import {
  CATALOGUE_CODE,
  CATALOGUE_CODE_MESSAGE,
  CATALOGUE_NAME_MAX,
  IMAGE_MIN_DISK_BOUNDS,
  OS_FAMILIES,
  VIRTUALIZATIONS,
} from '../../../domain/catalog.js';
import { text } from '../../../domain/input-bounds.js';
import { z } from '../../../wire/zod.js';

const editable = {
  name: text({ max: CATALOGUE_NAME_MAX, trim: true }).openapi({ example: 'Debian 12' }),
  os_family: z.enum(OS_FAMILIES).openapi({ description: 'Decides the user customers log in as over SSH.' }),
  virtualization: z.enum(VIRTUALIZATIONS),
  min_disk_mb: z
    .number()
    .int()
    .min(IMAGE_MIN_DISK_BOUNDS.min)
    .max(IMAGE_MIN_DISK_BOUNDS.max)
    .openapi({ example: 2048, description: 'The smallest disk an instance of the image may have.' }),
  is_public: z.boolean().openapi({ description: 'Whether customers see it and may order it.' }),
};

export const ImageCreateFields = z
  .strictObject({
    code: z
      .string()
      .regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE })
      .openapi({ example: 'debian-12', description: 'Customers order by it; agents find its files by it.' }),
    ...editable,
    virtualization: editable.virtualization.default('kvm'),
    is_public: editable.is_public.default(true),
  })
  .openapi('ImageCreate');

/** Every field but the code, which instances were made under and agents find the image's files by. */
export const ImageUpdateFields = z.strictObject(editable).partial().openapi('ImageUpdate');

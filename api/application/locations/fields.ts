import { CATALOGUE_CODE, CATALOGUE_CODE_MESSAGE, CATALOGUE_NAME_MAX } from '../../../domain/catalog.js';
import { text } from '../../../domain/input-bounds.js';
import { z } from '../../../wire/zod.js';

const name = text({ max: CATALOGUE_NAME_MAX, trim: true }).openapi({ example: 'Frankfurt 1' });

const dnsProvider = z
  .string()
  .uuid()
  .nullable()
  .openapi({
    description:
      'The provider of kind `dns` that serves the PTR records of the location’s addresses (docs/dns.md); ' +
      'null: none, so reverse DNS names are kept but published nowhere.',
  });

export const LocationCreateFields = z
  .strictObject({
    code: z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE }).openapi({ example: 'fra-1' }),
    name,
    dns_provider: dnsProvider.optional(),
  })
  .openapi('LocationCreate');

/** The name and the DNS provider: customers order by the code, and hypervisors and pools belong to it. */
export const LocationUpdateFields = z
  .strictObject({ name: name.optional(), dns_provider: dnsProvider.optional() })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    message: 'Give at least one field to change.',
  })
  .openapi('LocationUpdate');

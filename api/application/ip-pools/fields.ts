import { CATALOGUE_NAME_MAX } from '../../../domain/catalog.js';
import { text } from '../../../domain/input-bounds.js';
import { PageQuery } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const name = text({ max: CATALOGUE_NAME_MAX, trim: true }).openapi({ example: 'FRA1 public v4' });

export const IpPoolCreateFields = z
  .strictObject({
    location_uuid: z.string().uuid(),
    name,
    cidr: z
      .string()
      .max(64)
      .regex(/^[0-9a-fA-F:.]+\/[0-9]{1,3}$/, { message: 'Must be an IPv4 or IPv6 range: address/prefix.' })
      .openapi({
        example: '192.0.2.0/24',
        description: 'The routed range: IPv4 /16 to /30, IPv6 /48 to /126, host bits zero.',
      }),
    gateway: z
      .string()
      .max(64)
      .regex(/^[0-9a-fA-F:.]+$/, { message: 'Must be an IP address.' })
      .nullable()
      .default(null)
      .openapi({ example: '192.0.2.1', description: 'A host address of the range; never handed out.' }),
  })
  .openapi('IpPoolCreate');

/** The name only: guests were told the range and the gateway; another range is another pool. */
export const IpPoolUpdateFields = z.strictObject({ name }).openapi('IpPoolUpdate');

export const IpPoolListQuery = PageQuery.extend({
  location_uuid: z.string().uuid().optional().openapi({ description: 'Only this location’s pools.' }),
});

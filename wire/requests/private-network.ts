import { text } from '../../domain/input-bounds.js';
import { PRIVATE_PREFIX } from '../../domain/networks/private-networks.js';
import { z } from '../zod.js';

/** A new private network as a customer asks for it (an administrator names the customer besides). */
export const CreatePrivateNetworkBody = z
  .strictObject({
    name: text({ max: 64, trim: true }).openapi({ example: 'backend' }),
    location: text({ max: 64 }).openapi({ description: 'The code of a location.', example: 'ams1' }),
    cidr: text({ max: 18 }).openapi({
      description: `An IPv4 range of RFC 1918, /${PRIVATE_PREFIX.min} to /${PRIVATE_PREFIX.max}, without host bits.`,
      example: '10.20.0.0/24',
    }),
  })
  .openapi('CreatePrivateNetworkRequest');

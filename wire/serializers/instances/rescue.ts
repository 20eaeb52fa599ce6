import type { RescueStatus } from '../../../services/instances/rescue.js';
import { z } from '../../zod.js';

export const RescueEnvelope = z
  .object({
    object: z.literal('rescue'),
    attributes: z.object({
      active: z
        .boolean()
        .openapi({ description: 'Whether the guest runs its rescue system, its disk attached.' }),
      since: z
        .string()
        .nullable()
        .openapi({ description: 'When it entered rescue mode; null when not in it.' }),
      changing: z
        .enum(['entering', 'leaving'])
        .nullable()
        .openapi({ description: 'An operation entering or leaving rescue mode under way; null when none.' }),
    }),
  })
  .openapi('Rescue');

export function serializeRescue(status: RescueStatus): z.infer<typeof RescueEnvelope> {
  return {
    object: 'rescue',
    attributes: {
      active: status.active,
      since: status.since?.toISOString() ?? null,
      changing: status.changing,
    },
  };
}

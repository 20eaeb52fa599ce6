import { text } from '../../domain/input-bounds.js';
import { PLACEMENT_POLICIES } from '../../domain/placement-groups.js';
import { z } from '../zod.js';

/** A new placement group as a customer asks for it. */
export const CreatePlacementGroupBody = z
  .strictObject({
    name: text({ max: 64, trim: true }).openapi({ example: 'web' }),
    policy: z.enum(PLACEMENT_POLICIES).openapi({
      description:
        '`spread`: never two members on one hypervisor (a create that finds no hypervisor free of members is ' +
        'refused); `spread_soft`: hypervisors free of members first, any when none is.',
    }),
    location: text({ max: 64 }).openapi({ description: 'The code of a location.', example: 'ams1' }),
  })
  .openapi('CreatePlacementGroupRequest');

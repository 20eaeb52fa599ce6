import type { PlacementGroupRow } from '../../../db/repositories/instances/placement-groups.js';
import { PLACEMENT_POLICIES } from '../../../domain/placement-groups.js';
import { z } from '../../zod.js';

export const PlacementGroupEnvelope = z
  .object({
    object: z.literal('placement_group'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string(),
      policy: z.enum(PLACEMENT_POLICIES),
      location: z.string().openapi({ description: 'The code of its location.' }),
      member_count: z.number().int().openapi({ description: 'Its instances, not deleted ones.' }),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  })
  .openapi('PlacementGroup');

export function serializePlacementGroup(row: PlacementGroupRow): z.infer<typeof PlacementGroupEnvelope> {
  return {
    object: 'placement_group',
    attributes: {
      uuid: row.id,
      name: row.name,
      policy: row.policy,
      location: row.location_code,
      member_count: row.members,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

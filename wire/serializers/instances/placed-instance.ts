import type { PlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import type { Instance } from '../../../db/repositories/instances/instances.js';
import { INSTANCE_OPERATIONS } from '../../../domain/instances/operations.js';
import { PLACEMENT_POLICIES } from '../../../domain/placement-groups.js';
import { ExternalIdAttribute } from '../../requests/external-id.js';
import { z } from '../../zod.js';
import { InstanceAttributes, serializeInstance } from './instance.js';

/** An instance an administrator ordered, as its owner sees it, with the billing system's id the order gave it. */
export const OrderedInstanceEnvelope = z
  .object({
    object: z.literal('cloud_instance'),
    attributes: InstanceAttributes.extend({ external_id: ExternalIdAttribute }).openapi(
      'OrderedInstanceAttributes',
    ),
  })
  .openapi('OrderedInstance');

export function serializeOrderedInstance(
  row: NonNullable<Instance>,
): z.infer<typeof OrderedInstanceEnvelope> {
  const { object, attributes } = serializeInstance(row);
  return { object, attributes: { ...attributes, external_id: row.external_id } };
}

const PlacedInstanceAttributes = InstanceAttributes.extend({
  user_id: z.string().uuid(),
  plan_id: z.string().uuid().nullable().openapi({ description: 'Null once its plan was deleted.' }),
  image_id: z.string().uuid().nullable(),
  suspended_at: z
    .string()
    .nullable()
    .openapi({ description: 'Set while suspended: the customer begins no operation on it.' }),
  external_id: ExternalIdAttribute,
  location: z.object({ id: z.string().uuid(), code: z.string() }),
  hypervisor: z
    .object({ id: z.string().uuid(), name: z.string() })
    .nullable()
    .openapi({ description: 'Null until placed.' }),
  operation: z
    .object({ id: z.string().uuid(), kind: z.enum(INSTANCE_OPERATIONS), started_at: z.string() })
    .nullable()
    .openapi({ description: 'The operation under way, if any.' }),
  placement_group: z
    .object({ id: z.string().uuid(), name: z.string(), policy: z.enum(PLACEMENT_POLICIES) })
    .nullable()
    .openapi({ description: 'The customer’s placement group it is in; null: none.' }),
}).openapi('PlacedInstanceAttributes');

export const PlacedInstanceEnvelope = z
  .object({ object: z.literal('cloud_instance'), attributes: PlacedInstanceAttributes })
  .openapi('PlacedInstance');

/** An instance as administrators see it: the customer's fields, its owner, placement and running operation. */
export function serializePlacedInstance(row: PlacedInstance): z.infer<typeof PlacedInstanceEnvelope> {
  return {
    object: 'cloud_instance',
    attributes: {
      ...serializeInstance(row).attributes,
      user_id: row.user_id,
      plan_id: row.plan_id,
      image_id: row.image_id,
      suspended_at: row.suspended_at?.toISOString() ?? null,
      external_id: row.external_id,
      location: { id: row.location_id, code: row.location_code },
      hypervisor:
        row.hypervisor_id && row.hypervisor_name
          ? { id: row.hypervisor_id, name: row.hypervisor_name }
          : null,
      operation:
        row.operation_id && row.operation_kind && row.operation_started_at
          ? {
              id: row.operation_id,
              kind: row.operation_kind,
              started_at: row.operation_started_at.toISOString(),
            }
          : null,
      placement_group:
        row.placement_group_id && row.placement_group_name && row.placement_group_policy
          ? { id: row.placement_group_id, name: row.placement_group_name, policy: row.placement_group_policy }
          : null,
    },
  };
}

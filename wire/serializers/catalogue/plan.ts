import type { PlanRow } from '../../../db/repositories/catalogue/plans.js';
import { HOST_REQUIREMENTS } from '../../../domain/instances/host-requirements.js';
import { z } from '../../zod.js';

export const PlanAttributes = z
  .object({
    uuid: z.string().uuid(),
    code: z.string().openapi({ example: 'demo-small' }),
    name: z.string().openapi({ example: 'Demo small' }),
    cpu_cores: z.number().int().openapi({ example: 1 }),
    memory_mb: z.number().int().openapi({ example: 1024 }),
    disk_mb: z.number().int().openapi({ example: 20480 }),
    location_uuid: z
      .string()
      .uuid()
      .nullable()
      .openapi({ description: 'The location it is offered in; null: every location.' }),
    resize_group: z.string().nullable().openapi({
      description:
        'An instance changes between public plans of one group (`POST /{cloudInstance}/resize`); null: none.',
    }),
    monthly_price_cents: z.number().int().nullable().openapi({
      description: 'What it costs a month, in the provider’s currency’s cents; null: not stated.',
    }),
    monthly_transfer_gb: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Traffic included a month, in GB; null: not stated.' }),
    created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
  })
  .openapi('PlanAttributes');

export const PlanEnvelope = z
  .object({ object: z.literal('plan'), attributes: PlanAttributes })
  .openapi('Plan');

/** What an administrator sees of a plan: what a customer sees, and what binds its instances to a host. */
export const AdminPlanEnvelope = z
  .object({
    object: z.literal('plan'),
    attributes: PlanAttributes.extend({
      host_requirements: z.array(z.enum(HOST_REQUIREMENTS)),
      is_public: z.boolean().openapi({ description: 'Whether customers see it and may order it.' }),
    }),
  })
  .openapi('AdminPlan');

export function serializePlan(row: PlanRow): z.infer<typeof PlanEnvelope> {
  return {
    object: 'plan',
    attributes: {
      uuid: row.id,
      code: row.code,
      name: row.name,
      cpu_cores: row.cpu_cores,
      memory_mb: row.memory_mb,
      disk_mb: row.disk_mb,
      location_uuid: row.location_id,
      resize_group: row.resize_group,
      monthly_price_cents: row.monthly_price_cents,
      monthly_transfer_gb: row.monthly_transfer_gb,
      created_at: row.created_at.toISOString(),
    },
  };
}

export function serializeAdminPlan(row: PlanRow): z.infer<typeof AdminPlanEnvelope> {
  const { attributes } = serializePlan(row);
  return {
    object: 'plan',
    attributes: { ...attributes, host_requirements: row.host_requirements, is_public: row.is_public },
  };
}

import {
  CATALOGUE_CODE,
  CATALOGUE_CODE_MESSAGE,
  CATALOGUE_NAME_MAX,
  PLAN_BOUNDS,
} from '../../../domain/catalog.js';
import { text } from '../../../domain/input-bounds.js';
import { HOST_REQUIREMENTS } from '../../../domain/instances/host-requirements.js';
import { z } from '../../../wire/zod.js';

const size = (bounds: { min: number; max: number }, example: number) =>
  z.number().int().min(bounds.min).max(bounds.max).openapi({ example });

const editable = {
  name: text({ max: CATALOGUE_NAME_MAX, trim: true }).openapi({ example: 'Small' }),
  cpu_cores: size(PLAN_BOUNDS.cpu_cores, 1),
  memory_mb: size(PLAN_BOUNDS.memory_mb, 1024),
  disk_mb: size(PLAN_BOUNDS.disk_mb, 20480),
  host_requirements: z.array(z.enum(HOST_REQUIREMENTS)).max(HOST_REQUIREMENTS.length),
  is_public: z.boolean().openapi({
    description: 'Whether customers see it and may order it; its instances run on either way.',
  }),
  location_uuid: z.string().uuid().nullable().openapi({
    description: 'The location it is offered in; null: every location. A plan change stays in its location.',
  }),
  resize_group: z
    .string()
    .regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE })
    .nullable()
    .openapi({
      example: 'standard',
      description:
        'Customers change an instance between public plans of one group (its upgrade and downgrade path); ' +
        'null: a customer cannot change an instance of this plan, nor to it.',
    }),
  monthly_price_cents: z.number().int().min(0).max(100_000_000).nullable().openapi({
    description:
      'What it costs a month, in the provider’s currency’s cents; null: not stated. Shown in plan changes’ verdicts.',
  }),
  monthly_transfer_gb: z.number().int().min(0).max(100_000_000).nullable().openapi({
    description: 'Traffic included a month, in GB; null: not stated.',
  }),
};

export const PlanCreateFields = z
  .strictObject({
    code: z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE }),
    ...editable,
    host_requirements: editable.host_requirements.default([]),
    is_public: editable.is_public.default(true),
    location_uuid: editable.location_uuid.default(null),
    resize_group: editable.resize_group.default(null),
    monthly_price_cents: editable.monthly_price_cents.default(null),
    monthly_transfer_gb: editable.monthly_transfer_gb.default(null),
  })
  .openapi('PlanCreate');

/** Every field but the code, which customers order by and instances were made under: it stays. */
export const PlanUpdateFields = z.strictObject(editable).partial().openapi('PlanUpdate');

/** The fields as the plans repository names them (a location by its row id). */
export function planColumns<T extends { location_uuid?: string | null }>(
  fields: T,
): Omit<T, 'location_uuid'> & { location_id?: string | null } {
  const { location_uuid, ...rest } = fields;
  return { ...rest, ...(location_uuid !== undefined ? { location_id: location_uuid } : {}) };
}

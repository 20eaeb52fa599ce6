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
};

export const PlanCreateFields = z
  .strictObject({
    code: z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE }),
    ...editable,
    host_requirements: editable.host_requirements.default([]),
    is_public: editable.is_public.default(true),
  })
  .openapi('PlanCreate');

/** Every field but the code, which customers order by and instances were made under: it stays. */
export const PlanUpdateFields = z.strictObject(editable).partial().openapi('PlanUpdate');

import { CATALOGUE_CODE, CATALOGUE_CODE_MESSAGE, CATALOGUE_NAME_MAX } from '../../../domain/catalog.js';
import { text } from '../../../domain/input-bounds.js';
import { z } from '../../../wire/zod.js';

const name = text({ max: CATALOGUE_NAME_MAX, trim: true }).openapi({ example: 'Frankfurt 1' });

export const LocationCreateFields = z
  .strictObject({
    code: z.string().regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE }).openapi({ example: 'fra-1' }),
    name,
  })
  .openapi('LocationCreate');

/** The name only: customers order by the code, and hypervisors and pools belong to the location. */
export const LocationUpdateFields = z.strictObject({ name }).openapi('LocationUpdate');

import { z } from '@hono/zod-openapi';
import { fieldMessage } from './validation-messages.js';

// The zod instance with OpenAPI metadata, so every schema in api/ and wire/ describes itself.
export { z };

// Refusals word a bad field for the caller, not in the parser's terms; zod holds one
// configuration per process, and every API's validation reads it (validation-messages.ts).
z.config({ customError: fieldMessage });

/**
 * A schema of domain/ as a named OpenAPI component. zod 4 gives a schema its methods when it is
 * made, so one made before @hono/zod-openapi was loaded (in domain/, which cannot import it) has
 * no `.openapi()`: the object is made again here from its shape, its fields as they are, as strict
 * about unknown fields as it was.
 */
export const component = <Shape extends z.ZodRawShape>(
  schema: { shape: Shape; def: { catchall?: z.core.$ZodType } },
  name: string,
) => {
  const strict = schema.def.catchall?._zod.def.type === 'never';
  return (strict ? z.strictObject(schema.shape) : z.object(schema.shape)).openapi(name);
};

import { z } from '@hono/zod-openapi';

// The zod instance with OpenAPI metadata, so every schema in api/ describes itself.
export { z };

/**
 * A schema of domain/ as a named OpenAPI component. zod 4 gives a schema its methods when it is
 * made, so one made before @hono/zod-openapi was loaded (in domain/, which cannot import it) has
 * no `.openapi()`: the object is made again here from its shape, its fields as they are.
 */
export const component = <Shape extends z.ZodRawShape>(schema: { shape: Shape }, name: string) =>
  z.object(schema.shape).openapi(name);

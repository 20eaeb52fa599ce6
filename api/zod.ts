// The zod instance with OpenAPI metadata, so every schema in api/ describes itself.
export { z } from '@hono/zod-openapi';

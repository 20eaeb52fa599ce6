import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import { adminApi } from './admin/index.js';
import { agentApi } from './agent/index.js';
import { applicationApi } from './application/index.js';
import { clientApi } from './client/index.js';
import { consoleInternalApi } from './console-internal/index.js';
import type { DocumentName } from './reference/openapi.js';

/** The sub-application of each API, by the name of its OpenAPI document; they hold no dependencies. */
export function buildApis(): Record<DocumentName, OpenAPIHono<AppEnv>> {
  return {
    client: clientApi(),
    application: applicationApi(),
    'console-internal': consoleInternalApi(),
    agent: agentApi(),
    admin: adminApi(),
  };
}

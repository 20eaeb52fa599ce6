import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { quotaStanding } from '../../../services/quotas.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { QuotasEnvelope, serializeQuotas } from '../../../wire/serializers/accounts/quotas.js';

const route = createRoute({
  method: 'get',
  path: '/users/{user}/quotas',
  tags: ['Users'],
  summary: 'Show a user’s quotas and usage',
  description:
    'The most of each resource the user may hold (null: unlimited, as every user starts) and what they ' +
    'hold now: instances not deleted with their vCPUs and memory, disk (root disks and volumes), volumes ' +
    'and IP addresses.',
  request: { params: uuidParam('user') },
  responses: {
    200: jsonContent(QuotasEnvelope, 'The user’s quotas and usage.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const standing = await quotaStanding(c.get('deps').db, c.req.valid('param').user);
    return c.json(serializeQuotas(standing), 200);
  });
}

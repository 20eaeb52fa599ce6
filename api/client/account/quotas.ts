import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { quotaStanding } from '../../../services/quotas.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { QuotasEnvelope, serializeQuotas } from '../../../wire/serializers/accounts/quotas.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/account/quotas',
  tags: ['Account'],
  summary: 'Show the caller’s quotas and usage',
  description:
    'The quotas the provider set for this account (null: unlimited) and what it holds now. An order ' +
    'past one is refused with 409 `QUOTA_EXCEEDED`, whose `meta` names the resource, the limit, the ' +
    'usage and what the order asked for.',
  responses: {
    200: jsonContent(QuotasEnvelope, 'The caller’s quotas and usage.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const standing = await quotaStanding(c.get('deps').db, customerId(c));
    return c.json(serializeQuotas(standing), 200);
  });
}

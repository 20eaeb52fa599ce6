import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { setUserQuotas } from '../../../services/quotas.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { QuotasEnvelope, serializeQuotas } from '../../../wire/serializers/accounts/quotas.js';
import { adminActor } from '../../auth/principals.js';
import { UserQuotasFields } from './fields.js';

const route = createRoute({
  method: 'put',
  path: '/users/{user}/quotas',
  tags: ['Users'],
  summary: 'Set a user’s quotas',
  description:
    'Sets every limit at once (each field required; null: unlimited; 0: none of it). From then on an ' +
    'instance create or restore as new, a volume create, an extra address or a floating IP that would ' +
    'take the user past a limit is refused with 409 `QUOTA_EXCEEDED` and changes nothing. A limit below ' +
    'what the user holds is taken: nothing is removed; the user can give back but not grow. Each change ' +
    'is logged `user.quotas_set` in the user’s activity (`from`, `to`), the administrator as actor.',
  request: { params: uuidParam('user'), body: jsonBody(UserQuotasFields) },
  responses: {
    200: jsonContent(QuotasEnvelope, 'The user’s quotas, as set, and usage.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const standing = await setUserQuotas(c.get('deps'), adminActor(c), {
      userId: c.req.valid('param').user,
      limits: c.req.valid('json'),
      correlationId: c.get('requestId'),
    });
    return c.json(serializeQuotas(standing), 200);
  });
}

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { usageFiltersOf } from '../../../services/usage/read.js';
import { UsageQuery } from '../../../wire/requests/usage.js';
import { commonErrors, errorResponse } from '../../../wire/schemas.js';
import { customerId } from '../../auth/principals.js';
import { answerUsage, usageOkResponse } from '../../routes-kit/usage.js';

const route = createRoute({
  method: 'get',
  path: '/account/usage',
  tags: ['Account'],
  summary: 'List the caller’s usage records',
  description:
    'What the account was provided, hour by hour (docs/usage.md): the records of its closed hours from `from` ' +
    '(included) to `to` (excluded), of all its resources or one `instance`’s (another account’s instance ' +
    'has no records here), by hour and then as written. Paginated with `page` and `per_page`; as CSV ' +
    '(`Accept: text/csv` or `format=csv`) the whole range at once.',
  request: { query: UsageQuery },
  responses: {
    ...usageOkResponse,
    ...commonErrors,
    422: errorResponse('A range that is not whole hours, reversed, or longer than a month (SVC-USAGE-422).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const filters = usageFiltersOf({
      userId: customerId(c),
      instanceId: query.instance,
      from: query.from,
      to: query.to,
    });
    return answerUsage(c, filters, query);
  });
}

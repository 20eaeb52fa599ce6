import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { usageFiltersOf } from '../../../services/usage/read.js';
import { ApplicationUsageQuery } from '../../../wire/requests/usage.js';
import { commonErrors, errorResponse } from '../../../wire/schemas.js';
import { answerUsage, usageOkResponse } from '../../routes-kit/usage.js';

const route = createRoute({
  method: 'get',
  path: '/usage',
  tags: ['Usage'],
  summary: 'List usage records',
  description:
    'What the plane provided, hour by hour (docs/usage.md): the records of the closed hours from `from` ' +
    '(included) to `to` (excluded), every customer’s or one `user`’s or one `instance`’s, by hour and then as ' +
    'written. A record never changes once its hour is closed. Paginated with `page` and `per_page`; as CSV ' +
    '(`Accept: text/csv` or `format=csv`) the whole range at once.',
  request: { query: ApplicationUsageQuery },
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
      userId: query.user,
      instanceId: query.instance,
      from: query.from,
      to: query.to,
    });
    return answerUsage(c, filters, query);
  });
}

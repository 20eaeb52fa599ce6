import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { consoleOffer } from '../../../../services/console/offers.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import { ConsoleEnvelope, serializeConsole } from '../../../../wire/serializers/instances/console.js';
import { customerActor } from '../../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/console',
  tags: ['Console'],
  summary: 'Console capabilities',
  description:
    'What the instance’s console offers: a text session on its serial console, and one on its screen where ' +
    'its hypervisor’s agent relays it (as that agent reports), and how long a session lasts. Nothing is ' +
    'offered while the provider has no console gateway configured.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(ConsoleEnvelope, 'The instance’s console.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const offer = await consoleOffer(deps, customerActor(c), c.req.valid('param').cloudInstance);
    return c.json(serializeConsole(offer, deps.config.CONSOLE_SESSION_TTL_MS), 200);
  });
}

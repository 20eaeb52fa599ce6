import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { startProviderRun } from '../../../services/providers/runs.js';
import {
  commonErrors,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { ProviderRunEnvelope, serializeProviderRun } from '../../../wire/serializers/provider.js';
import { adminActor } from '../../auth/principals.js';

/**
 * `POST /providers/{provider}/<kind>`: a test or a sync begun as a workflow, answered at once with
 * its run (202); a request while one of its kind runs joins it.
 */
export function runRoute(spec: { kind: 'test' | 'sync'; summary: string; description: string }) {
  const route = createRoute({
    method: 'post',
    path: `/providers/{provider}/${spec.kind}`,
    tags: ['Providers'],
    summary: spec.summary,
    description:
      `${spec.description} Answers 202 with the run at once; read its outcome at ` +
      '`GET /providers/{provider}/runs/{run}`. Asked for while one runs, it answers with that run.',
    request: { params: uuidParam('provider') },
    responses: {
      202: jsonContent(ProviderRunEnvelope, 'The run, begun or joined.'),
      ...commonErrors,
      ...notFoundResponse,
      ...unavailableResponse('The workflow service is unavailable (SVC-SYS-503); the run is marked failed.'),
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const run = await startProviderRun(
          c.get('deps'),
          adminActor(c),
          { providerId: c.req.valid('param').provider, correlationId: c.get('requestId') },
          { kind: spec.kind },
        );
        return c.json(serializeProviderRun(run), 202);
      });
    },
  };
}

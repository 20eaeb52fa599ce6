import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { startProviderRun } from '../../../services/providers/runs.js';
import {
  type commonErrors,
  jsonContent,
  type notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { ProviderRunEnvelope, serializeProviderRun } from '../../../wire/serializers/network/provider.js';
import { adminActor } from '../../auth/principals.js';

/** A test's or a sync's 202, and its 503: the run's own answers, the same for both kinds. */
export const runBegunOrJoined = jsonContent(ProviderRunEnvelope, 'The run, begun or joined.');
export const runUnavailable = unavailableResponse(
  'The workflow service is unavailable (SVC-SYS-503); the run is marked failed.',
);

/**
 * `POST /providers/{provider}/<kind>`: a test or a sync begun as a workflow, answered at once with
 * its run (202); a request while one of its kind runs joins it. The route file states its method,
 * path (which ends in its kind) and responses.
 */
export function runRoute<K extends 'test' | 'sync'>(spec: {
  readonly kind: K;
  readonly method: 'post';
  readonly path: `/providers/{provider}/${NoInfer<K>}`;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 202: typeof runBegunOrJoined } & typeof commonErrors &
    typeof notFoundResponse &
    typeof runUnavailable;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Providers'],
    summary: spec.summary,
    description:
      `${spec.description} Answers 202 with the run at once; read its outcome at ` +
      '`GET /providers/{provider}/runs/{run}`. Asked for while one runs, it answers with that run.',
    request: { params: uuidParam('provider') },
    responses: spec.responses,
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

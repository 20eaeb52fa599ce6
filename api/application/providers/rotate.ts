import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { startProviderRun } from '../../../services/providers/runs.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { ProviderRunEnvelope, serializeProviderRun } from '../../../wire/serializers/network/provider.js';
import { adminActor } from '../../auth/principals.js';
import { ProviderCredentialFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/providers/{provider}/credential/rotate',
  tags: ['Providers'],
  summary: 'Rotate a provider’s credential',
  description:
    'Tries the new credential against the provider (as a test does) and makes it the credential only ' +
    'if the provider accepts it; otherwise the old one stays and the run says why. Write-only like ' +
    '`PUT …/credential`. Answers 202 with the run; `credential_rotated_at` moves when it succeeds.',
  request: { params: uuidParam('provider'), body: jsonBody(ProviderCredentialFields) },
  responses: {
    202: jsonContent(ProviderRunEnvelope, 'The rotation, begun.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('A rotation of this provider is under way (SVC-OP-409); nothing changed.'),
    ...unavailableResponse(
      'No `SECRETS_KEY` (SVC-CONFIG-503), or the workflow service is unavailable (SVC-SYS-503); the ' +
        'credential is unchanged.',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const run = await startProviderRun(
      c.get('deps'),
      adminActor(c),
      { providerId: c.req.valid('param').provider, correlationId: c.get('requestId') },
      { kind: 'rotate', credential: c.req.valid('json').credential },
    );
    return c.json(serializeProviderRun(run), 202);
  });
}

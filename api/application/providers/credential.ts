import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { setCredential } from '../../../services/providers/providers.js';
import {
  commonErrors,
  jsonBody,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { ProviderEnvelope, serializeProvider } from '../../../wire/serializers/network/provider.js';
import { ProviderCredentialFields } from './fields.js';

const route = createRoute({
  method: 'put',
  path: '/providers/{provider}/credential',
  tags: ['Providers'],
  summary: 'Set a provider’s credential',
  description:
    'Write-only: the credential is sealed with `SECRETS_KEY` and no response, log line, error or ' +
    'workflow history holds it; the provider shows `credential_set` and `credential_rotated_at`. It ' +
    'replaces the credential at once, untested: `POST …/credential/rotate` tries a new one first.',
  request: { params: uuidParam('provider'), body: jsonBody(ProviderCredentialFields) },
  responses: {
    200: jsonContent(ProviderEnvelope, 'The provider.'),
    ...commonErrors,
    ...notFoundResponse,
    ...unavailableResponse(
      'The service has no `SECRETS_KEY` to seal it with (SVC-CONFIG-503); nothing changed.',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { credential } = c.req.valid('json');
    const row = await setCredential(c.get('deps'), c.req.valid('param').provider, credential);
    return c.json(serializeProvider(row), 200);
  });
}

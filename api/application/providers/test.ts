import { runRoute } from './run-route.js';

export const { register } = runRoute({
  kind: 'test',
  summary: 'Test a provider',
  description:
    'Calls `GET {endpoint}` with the credential as a bearer token: `ok` on a 2xx, `unauthorized` on 401 ' +
    'or 403.',
});

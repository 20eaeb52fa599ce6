import { commonErrors, notFoundResponse } from '../../../wire/schemas.js';
import { runBegunOrJoined, runRoute, runUnavailable } from './run-route.js';

export const { register } = runRoute({
  kind: 'test',
  method: 'post',
  path: '/providers/{provider}/test',
  summary: 'Test a provider',
  description:
    'Calls `GET {endpoint}` with the credential as a bearer token: `ok` on a 2xx, `unauthorized` on 401 ' +
    'or 403.',
  responses: {
    202: runBegunOrJoined,
    ...commonErrors,
    ...notFoundResponse,
    ...runUnavailable,
  },
});

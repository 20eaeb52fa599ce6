import { commonErrors, notFoundResponse } from '../../../wire/schemas.js';
import { runBegunOrJoined, runRoute, runUnavailable } from './run-route.js';

export const { register } = runRoute({
  kind: 'sync',
  method: 'post',
  path: '/providers/{provider}/sync',
  summary: 'Sync a provider',
  description:
    'Reads the provider’s inventory, `GET {endpoint}/inventory` with the credential as a bearer token (a ' +
    'JSON array, or an object whose `data` is one, at most 4 MiB), and records how many items it lists.',
  responses: {
    202: runBegunOrJoined,
    ...commonErrors,
    ...notFoundResponse,
    ...runUnavailable,
  },
});

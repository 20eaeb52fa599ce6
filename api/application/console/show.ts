import { findConsoleSession } from '../../../db/repositories/instances/console-sessions.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import {
  ConsoleSessionEnvelope,
  serializeConsoleSession,
} from '../../../wire/serializers/instances/console.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/console/sessions/{session}',
  tag: 'Console',
  summary: 'Show a console session',
  responses: {
    200: jsonContent(ConsoleSessionEnvelope, 'The session.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findConsoleSession,
  serialize: serializeConsoleSession,
});

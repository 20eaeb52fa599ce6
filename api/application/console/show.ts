import { findConsoleSession } from '../../../db/repositories/console-sessions.js';
import { ConsoleSessionEnvelope, serializeConsoleSession } from '../../../wire/serializers/console.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'console/sessions',
  param: 'session',
  tag: 'Console',
  summary: 'Show a console session',
  envelope: ConsoleSessionEnvelope,
  find: findConsoleSession,
  serialize: serializeConsoleSession,
});

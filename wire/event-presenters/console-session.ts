import { CONSOLE_END_REASONS, CONSOLE_KINDS, CONSOLE_SESSION_STATES } from '../../domain/console/sessions.js';
import { ConsoleSessionEnvelope, serializeConsoleSession } from '../serializers/instances/console.js';
import { z } from '../zod.js';
import { at, atOrNull, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

/** A console session's row as its repository reads it: never its connect token's hash. */
const ConsoleSessionSnapshot = z.object({
  id: z.string(),
  instance_id: z.string(),
  user_id: z.string(),
  kind: z.enum(CONSOLE_KINDS),
  state: z.enum(CONSOLE_SESSION_STATES),
  gateway_credential_id: z.string().nullable(),
  created_at: at,
  connect_by: at,
  expires_at: at,
  validated_at: atOrNull,
  connected_at: atOrNull,
  disconnected_at: atOrNull,
  last_heartbeat_at: atOrNull,
  ended_at: atOrNull,
  end_reason: z.enum(CONSOLE_END_REASONS).nullable(),
});

export const consoleSessionPresenter: EventPresenter<typeof ConsoleSessionEnvelope> = {
  schema: ConsoleSessionEnvelope,
  present: (snapshot) => serializeConsoleSession(ConsoleSessionSnapshot.parse(snapshot)),
  example: (state) => ({
    id: '8e0a2c4e-6f8b-4d1a-a3c5-7e9f1b3d5a7c',
    instance_id: EXAMPLE_IDS.instance,
    user_id: EXAMPLE_IDS.user,
    kind: 'serial',
    state,
    gateway_credential_id: null,
    created_at: EXAMPLE_AT,
    connect_by: EXAMPLE_AT,
    expires_at: EXAMPLE_AT,
    validated_at: EXAMPLE_AT,
    connected_at: EXAMPLE_AT,
    disconnected_at: state === 'ended' ? EXAMPLE_AT : null,
    last_heartbeat_at: EXAMPLE_AT,
    ended_at: state === 'ended' ? EXAMPLE_AT : null,
    end_reason: state === 'ended' ? 'disconnected' : null,
  }),
};

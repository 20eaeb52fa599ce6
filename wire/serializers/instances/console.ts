import type { ConsoleSessionRow } from '../../../db/repositories/instances/console-sessions.js';
import {
  CONSOLE_END_REASONS,
  CONSOLE_KINDS,
  CONSOLE_SESSION_STATES,
} from '../../../domain/console/sessions.js';
import type { ConsoleOffer } from '../../../services/console/offers.js';
import { z } from '../../zod.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const ConsoleEnvelope = z
  .object({
    object: z.literal('console'),
    attributes: z.object({
      serial: z
        .boolean()
        .openapi({ description: 'Whether a text session on the serial console can be opened.' }),
      graphical: z.boolean().openapi({ description: 'Whether a session on the screen can be opened.' }),
      kinds: z.array(z.enum(CONSOLE_KINDS)).openapi({ description: 'The kinds a session may be opened of.' }),
      session_ttl_seconds: z.number().int().openapi({ description: 'How long a session lasts at most.' }),
    }),
  })
  .openapi('Console');

/** What the console offers: nothing while no gateway is configured. */
export function serializeConsole(offer: ConsoleOffer, sessionTtlMs: number): z.infer<typeof ConsoleEnvelope> {
  const kinds = offer.available ? [...offer.kinds] : [];
  return {
    object: 'console',
    attributes: {
      serial: kinds.includes('serial'),
      graphical: kinds.includes('graphical'),
      kinds,
      session_ttl_seconds: Math.round(sessionTtlMs / 1000),
    },
  };
}

const sessionAttributes = {
  uuid: z.string().uuid(),
  instance: z.string().uuid(),
  user: z.string().uuid().openapi({ description: 'Whose session it is.' }),
  kind: z.enum(CONSOLE_KINDS),
  state: z.enum(CONSOLE_SESSION_STATES).openapi({
    description:
      '`pending` until a gateway redeems its connect token, `validated` once one did, `connected` while the ' +
      'gateway relays it, `ended` after.',
  }),
  connect_by: z.string().openapi({ description: 'The connect token is good until then.' }),
  expires_at: z.string().openapi({ description: 'The session ends then, however it is used.' }),
  connected_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  end_reason: z.enum(CONSOLE_END_REASONS).nullable(),
  created_at: z.string(),
};

export const ConsoleSessionEnvelope = z
  .object({ object: z.literal('console_session'), attributes: z.object(sessionAttributes) })
  .openapi('ConsoleSession');

export const NewConsoleSessionEnvelope = z
  .object({
    object: z.literal('console_session'),
    attributes: z.object({
      ...sessionAttributes,
      connect_token: z.string().openapi({
        description:
          'Single-use: the browser hands it to the gateway, which redeems it once. Shown in this answer only; ' +
          'the panel keeps its hash.',
      }),
      gateway_url: z.string().openapi({ description: 'Where the browser connects (CONSOLE_GATEWAY_URL).' }),
      console_url: z.string().openapi({
        description:
          'The panel’s console page for this session, the token in its fragment (never sent to a server): ' +
          '`/console/{uuid}#<connect_token>`, on the API’s own address.',
      }),
    }),
  })
  .openapi('NewConsoleSession');

export function serializeConsoleSession(row: ConsoleSessionRow): z.infer<typeof ConsoleSessionEnvelope> {
  return {
    object: 'console_session',
    attributes: {
      uuid: row.id,
      instance: row.instance_id,
      user: row.user_id,
      kind: row.kind,
      state: row.state,
      connect_by: row.connect_by.toISOString(),
      expires_at: row.expires_at.toISOString(),
      connected_at: iso(row.connected_at),
      ended_at: iso(row.ended_at),
      end_reason: row.end_reason,
      created_at: row.created_at.toISOString(),
    },
  };
}

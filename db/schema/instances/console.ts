import type { Generated } from 'kysely';
import type { ConsoleEndReason, ConsoleKind, ConsoleSessionState } from '../../../domain/console/sessions.js';
import type { NullableTimestamp, Timestamp } from '../columns.js';

export interface ConsoleSessionsTable {
  id: string;
  instance_id: string;
  user_id: string;
  kind: ConsoleKind;
  state: ConsoleSessionState;
  connect_token_hash: string;
  /** The gateway that redeemed its connect token. */
  gateway_credential_id: string | null;
  created_at: Timestamp;
  /** The connect token is good until then. */
  connect_by: Timestamp;
  /** The session ends then, however it is used. */
  expires_at: Timestamp;
  validated_at: NullableTimestamp;
  connected_at: NullableTimestamp;
  disconnected_at: NullableTimestamp;
  last_heartbeat_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  end_reason: ConsoleEndReason | null;
}

export interface ConsoleSessionEndingsTable {
  id: Generated<string>;
  session_id: string;
  reason: ConsoleEndReason;
  created_at: Timestamp;
}

export interface ConsoleGatewaysTable {
  credential_id: string;
  relay_url: string | null;
  sessions: Generated<number>;
  last_heartbeat_at: Timestamp;
}

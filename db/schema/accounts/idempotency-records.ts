import type { NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface IdempotencyRecordsTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: NullableJson<unknown>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

import type { Timestamp } from '../columns.js';

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_ends_at: Timestamp;
}

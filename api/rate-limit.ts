import type { Database } from '../db/database.js';
import { hitRateLimit, type RateLimit } from '../db/repositories/rate-limits.js';
import { ApiError } from '../domain/errors.js';

/**
 * Counts one hit and refuses it over the limit with 429 and Retry-After. The counts are kept in
 * PostgreSQL, so a limit holds across every API process.
 */
export async function enforceRateLimit(db: Database, limit: RateLimit): Promise<void> {
  const verdict = await hitRateLimit(db, limit);
  if (!verdict.allowed) {
    throw new ApiError('SVC-REQ-429', { headers: { 'Retry-After': String(verdict.retryAfterSeconds) } });
  }
}

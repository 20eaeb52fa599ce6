import { hitRateLimit } from '../../db/repositories/accounts/rate-limits.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

const WINDOW_MS = 60_000;

/**
 * The internal API's own limit (SPEC.md §8): each console-gateway credential may make
 * CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE requests a minute, counted in PostgreSQL across API
 * processes; one more is 429 with Retry-After.
 */
export async function countGatewayRequest(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  credentialId: string,
): Promise<void> {
  const limit = deps.config.CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE;
  const verdict = await hitRateLimit(deps.db, {
    key: `console-internal:${credentialId}`,
    limit,
    windowMs: WINDOW_MS,
  });
  if (!verdict.allowed)
    throw new ApiError('SVC-REQ-429', {
      detail: `A console gateway may make at most ${limit} requests a minute.`,
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
    });
}

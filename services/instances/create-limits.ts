import { hitRateLimit } from '../../db/repositories/accounts/rate-limits.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

const CREATE_WINDOW_MS = 60_000;

/** Where a customer's creation rate limit stands, for the RateLimit headers. */
export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/**
 * Counts one creation against the customer's limit (INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE, kept
 * in PostgreSQL so every API process counts alike); `onState` hears where it stands, refused or
 * not, and a refusal is 429 with Retry-After.
 */
export async function countCreation(
  deps: ServiceDeps,
  userId: string,
  onState: (state: RateLimitState) => void,
): Promise<void> {
  const limit = deps.config.INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE;
  const verdict = await hitRateLimit(deps.db, {
    key: `instance-create:${userId}`,
    limit,
    windowMs: CREATE_WINDOW_MS,
  });
  onState({ limit, remaining: verdict.remaining, resetSeconds: verdict.resetSeconds });
  if (!verdict.allowed)
    throw new ApiError('SVC-REQ-429', {
      detail: `At most ${limit} instances may be created per minute.`,
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
    });
}

/** The IETF draft's RateLimit fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(state: RateLimitState) {
  return {
    'RateLimit-Policy': `"instance-create";q=${state.limit};w=${CREATE_WINDOW_MS / 1000}`,
    RateLimit: `"instance-create";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/** A refusal after the rate limit was counted still tells the caller where the limit stands. */
export function withRateLimitHeaders(error: unknown, state: RateLimitState | undefined): unknown {
  if (!(error instanceof ApiError) || !state) return error;
  return new ApiError(error.code, {
    detail: error.detail,
    fields: error.fields,
    cause: error.cause,
    headers: { ...error.headers, ...rateLimitHeaders(state) },
    ...(error.meta ? { meta: error.meta } : {}),
  });
}

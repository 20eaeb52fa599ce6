import { createHash } from 'node:crypto';
import type { Database } from '../db/database.js';
import {
  claimIdempotencyKey,
  completeIdempotencyRecord,
  findIdempotencyRecord,
  releaseIdempotencyKey,
} from '../db/repositories/accounts/idempotency.js';
import { ApiError } from '../domain/errors.js';

/** A request that has not stored its answer after this long died: its key may be taken over. */
const IN_FLIGHT_STALE_MS = 60_000;

export interface IdempotentAnswer<T> {
  readonly status: number;
  readonly body: T;
  /** True when this is the stored answer of an earlier request with the same key. */
  readonly replayed: boolean;
}

/** The same method, path and body (keys in any order) give the same hash. */
export function requestHash(method: string, path: string, body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify([method, path, canonical(body)]))
    .digest('hex');
}

/**
 * `Idempotency-Key` with the IETF draft's semantics, scoped to the user: the first request with a
 * key claims it and stores its answer in the same transaction as its work (`remember`); the same
 * key with the same request gets that answer again (`replayed`), with another request 422, and
 * while the first is still running 409. A request that fails gives its key back. Without a key,
 * `work` simply runs.
 */
export async function idempotently<T>(
  db: Database,
  request: { userId: string; key: string | undefined; hash: string },
  work: (
    remember: (trx: Database, status: number, body: T) => Promise<void>,
  ) => Promise<{ status: number; body: T }>,
): Promise<IdempotentAnswer<T>> {
  const { userId, key } = request;
  if (key === undefined) return { ...(await work(async () => {})), replayed: false };

  const claimed = await claimIdempotencyKey(db, {
    userId,
    key,
    requestHash: request.hash,
    staleAfterMs: IN_FLIGHT_STALE_MS,
  });
  if (!claimed) {
    const existing = await findIdempotencyRecord(db, userId, key);
    if (!existing) throw new ApiError('SVC-IDEMP-409');
    if (existing.request_hash !== request.hash) throw new ApiError('SVC-IDEMP-422');
    if (!existing.completed_at || existing.status_code === null) throw new ApiError('SVC-IDEMP-409');
    return { status: existing.status_code, body: existing.response_body as T, replayed: true };
  }
  try {
    const answer = await work((trx, status, body) =>
      completeIdempotencyRecord(trx, { userId, key, statusCode: status, body }),
    );
    return { ...answer, replayed: false };
  } catch (error) {
    await releaseIdempotencyKey(db, userId, key);
    throw error;
  }
}

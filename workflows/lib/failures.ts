import { ApplicationFailure, CancelledFailure, TimeoutFailure } from '@temporalio/workflow';
import { ERROR_CATALOGUE, type ErrorCode } from '../../domain/errors.js';

/**
 * A business failure: non-retryable, typed with a code of the error catalogue, its message
 * customer-safe. The API maps it back to the same code (services/workflow-failures.ts).
 */
export function businessFailure(code: ErrorCode, detail?: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: code,
    message: detail ?? ERROR_CATALOGUE[code].detail,
    nonRetryable: true,
  });
}

/**
 * Why a step failed, for the activity log: the innermost failure's code (an agent's or the
 * catalogue's, `TIMEOUT` or `CANCELLED`) and its message. Temporal wraps a step's failure in an
 * ActivityFailure whose cause holds the reason.
 */
export function describeFailure(error: unknown): { code: string; message: string } {
  let innermost: unknown = error;
  for (let current: unknown = error; current instanceof Error; current = current.cause) innermost = current;
  if (innermost instanceof ApplicationFailure)
    return { code: innermost.type ?? 'FAILED', message: innermost.message };
  if (innermost instanceof TimeoutFailure) return { code: 'TIMEOUT', message: innermost.message };
  if (innermost instanceof CancelledFailure) return { code: 'CANCELLED', message: 'cancelled' };
  return { code: 'FAILED', message: innermost instanceof Error ? innermost.message : String(innermost) };
}

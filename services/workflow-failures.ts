import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError, ERROR_CATALOGUE, type ErrorCode } from '../domain/errors.js';

const isCatalogueCode = (type: string | undefined | null): type is ErrorCode =>
  typeof type === 'string' && Object.hasOwn(ERROR_CATALOGUE, type);

/**
 * A workflow's business failure carries a catalogue code (workflows/lib/failures.ts): it comes back
 * to the caller as that code and its customer-safe message. Any other failure of the workflow is
 * `fallback`; anything that is not a workflow failure means Temporal could not be reached.
 */
export function apiErrorOfWorkflow(error: unknown, fallback: () => ApiError): ApiError {
  if (!(error instanceof WorkflowFailedError)) return new ApiError('SVC-SYS-503', { cause: error });
  for (let current: unknown = error.cause; current instanceof Error; current = current.cause) {
    if (current instanceof ApplicationFailure && isCatalogueCode(current.type))
      return new ApiError(current.type, { detail: current.message, cause: error });
  }
  const mapped = fallback();
  return new ApiError(mapped.code, { detail: mapped.detail, cause: error });
}

/** A refusal of a workflow's update validator comes back as its catalogue code; anything else is 503. */
export function apiErrorOfUpdate(error: unknown): ApiError {
  if (error instanceof WorkflowUpdateFailedError) {
    for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof ApplicationFailure && isCatalogueCode(cause.type))
        return new ApiError(cause.type, { detail: cause.message, cause: error });
    }
  }
  return new ApiError('SVC-SYS-503', { cause: error });
}

import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ApiError } from '../domain/errors.js';

/** Starting a workflow: a duplicate id is a conflict, anything else means Temporal is away. */
export function workflowStartError(error: unknown): ApiError {
  if (error instanceof WorkflowExecutionAlreadyStartedError)
    return new ApiError('SVC-OP-409', { cause: error });
  return new ApiError('SVC-SYS-503', { cause: error });
}

/**
 * What a customer is told about a failed operation. Failure codes come from agents and Temporal
 * and may carry a hypervisor's internals in their messages; only the code's customer-safe meaning
 * leaves the panel (SPEC.md §1: no provider internals in the Client API).
 */
/**
 * Why an operation was never started: the workflow service did not answer when it was asked to.
 * The request was refused (503) and nothing else changed.
 */
export const WORKFLOW_UNAVAILABLE = {
  code: 'WORKFLOW_UNAVAILABLE',
  message: 'The operation could not be started: the service was unavailable. Nothing was changed; try again.',
} as const;

const CUSTOMER_MESSAGES: Record<string, string> = {
  AGENT_TASK_NOT_PICKED_UP: 'The hypervisor did not take up the operation in time.',
  TIMEOUT: 'The hypervisor stopped answering during the operation.',
  CANCELLED: 'The operation was cancelled.',
  CANCELLED_BY_PROVIDER: 'The provider cancelled the operation before it began; nothing was changed.',
  INSUFFICIENT_CAPACITY: 'The hypervisor lacked the capacity for the instance.',
  INSTANCE_NOT_FOUND: 'The hypervisor does not know the instance.',
  BACKUP_CORRUPT: 'The backup does not match the checksum recorded when it was made; nothing was changed.',
  BACKUP_NOT_FOUND: 'The backup is no longer in the backup store.',
  SNAPSHOT_CORRUPT:
    'The snapshot does not match the checksum recorded when it was made; nothing was changed.',
  SNAPSHOT_NOT_FOUND: 'The hypervisor no longer has the snapshot.',
  WORKFLOW_UNAVAILABLE: WORKFLOW_UNAVAILABLE.message,
  ABANDONED: 'The operation was stopped before it finished.',
  HOT_RESIZE_REFUSED:
    'The running guest could not take the new size without a reboot; nothing was changed. Stop it and ask again.',
};

const GENERIC = 'The hypervisor could not complete the operation.';

export function customerFailure(failure: { code?: unknown } | null | undefined): {
  code: string;
  message: string;
} {
  const code = typeof failure?.code === 'string' ? failure.code : 'FAILED';
  const message = CUSTOMER_MESSAGES[code];
  return message ? { code, message } : { code: 'OPERATION_FAILED', message: GENERIC };
}

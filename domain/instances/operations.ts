import type { Verdict } from '../errors.js';
import type { InstanceOperation } from './operation-kinds.js';
import { OPERATION_RULES } from './operation-rules.js';
import type { InstanceStatus, PowerAction } from './statuses.js';

// What the operations model decides (the table is operation-rules.ts): the status an operation
// holds the instance in, whether it may begin, and where a failure leaves the instance.

export {
  INSTANCE_OPERATIONS,
  type InstanceOperation,
  OPERATION_STATES,
  type OperationState,
} from './operation-kinds.js';
export { OPERATION_RULES, type OperationRule } from './operation-rules.js';

/** The status an operation holds the instance in while it runs, given where it began. */
export function statusDuring(operation: InstanceOperation, from: InstanceStatus): InstanceStatus {
  const { during } = OPERATION_RULES[operation];
  return during === 'unchanged' ? from : during;
}

export const powerOperation = (action: PowerAction): InstanceOperation => action;

/** What the instance looked like when an operation was refused. */
export interface RefusalFacts {
  readonly status: string;
  readonly runningOperation: InstanceOperation | null;
  readonly migrating: boolean;
  readonly suspended: boolean;
}

/**
 * Why `operation` may not begin, in the order a caller can act on it; ok when it may. A
 * suspension holds the customer only: an administrator's or the system's operations run.
 */
export function mayBegin(
  operation: InstanceOperation,
  facts: RefusalFacts,
  asker: 'customer' | 'operator',
): Verdict {
  const rule = OPERATION_RULES[operation];
  if (facts.suspended && asker === 'customer') {
    return {
      ok: false,
      code: 'INSTANCE_SUSPENDED',
      detail: 'The instance is suspended by the provider; contact them to lift the suspension.',
    };
  }
  if (facts.migrating) {
    return {
      ok: false,
      code: 'INSTANCE_MIGRATING',
      detail: 'The instance is being migrated; try again once the migration ends.',
    };
  }
  if (facts.runningOperation && !rule.preempts.includes(facts.runningOperation)) {
    return {
      ok: false,
      code: 'SVC-OP-409',
      detail: `Another operation (${facts.runningOperation}) is in progress on this instance.`,
    };
  }
  if (!(rule.from as readonly string[]).includes(facts.status)) {
    if (facts.status === 'rescue')
      return {
        ok: false,
        code: 'SVC-CONFLICT-409',
        detail: 'The instance is in rescue mode; leave it first (POST …/rescue/exit).',
      };
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The instance cannot ${operation} while it is ${facts.status}.`,
    };
  }
  return { ok: true };
}

/** The status a failed or cancelled operation leaves behind. */
export function statusAfterFailure(operation: InstanceOperation, previous: InstanceStatus): InstanceStatus {
  const { onFailure } = OPERATION_RULES[operation];
  return onFailure === 'previous' ? previous : onFailure;
}

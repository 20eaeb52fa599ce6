import { hasPendingWithdrawals } from '../../db/repositories/network/reverse-dns-withdrawals.js';
import { REVERSE_DNS_CHANGED_SIGNAL, type ReverseDnsChanged } from '../../domain/dns/publishing.js';
import { reverseDnsWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { signalWithStart } from '../workflow-starts.js';

/**
 * Wakes the location's publishing run (starts it when none is open): what every change of a
 * location's reverse DNS does after its commit. Throws when Temporal cannot be reached.
 */
export function wakeReverseDnsPublisher(
  deps: Pick<ServiceDeps, 'temporal' | 'config'>,
  locationId: string,
  signal: ReverseDnsChanged,
  correlationId: string | null,
) {
  return signalWithStart(
    deps,
    {
      type: 'publishReverseDns',
      workflowId: reverseDnsWorkflowId(locationId),
      input: { locationId, resync: signal.resync },
      searchAttributes: {},
      correlationId,
    },
    { name: REVERSE_DNS_CHANGED_SIGNAL, args: [signal] },
  );
}

/**
 * After a commit that gave addresses of the location back: the run is woken when a released
 * address's PTR record is to be deleted (the withdrawal its delete recorded). Read after the
 * commit, so a retried step that released nothing the second time still wakes it.
 */
export async function wakeAfterRelease(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config'>,
  locationId: string,
): Promise<void> {
  if (await hasPendingWithdrawals(deps.db, locationId))
    await wakeReverseDnsPublisher(deps, locationId, { resync: false }, null);
}

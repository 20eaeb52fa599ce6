import type { Database } from '../../db/database.js';
import { revertNetworkChange } from '../../db/repositories/network/network-changes.js';
import { bumpRevision } from '../../db/repositories/network/network-revisions.js';
import type { Asker } from '../../domain/actors.js';
import type { NetworkChange } from '../../domain/networks/addresses.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';

/**
 * Begins the network operation of `change` on the instance (`changeInstanceNetwork`); `write`
 * records the change, in the transaction that holds the instance, and the network revision of the
 * instance moves on with it (and of the instance a moved floating IP leaves).
 */
export async function beginNetworkChange(
  deps: ServiceDeps,
  asker: Asker,
  instance: { id: string; hypervisor_id: string },
  change: NetworkChange,
  correlationId: string | null,
  write: (trx: Database) => Promise<void>,
): Promise<void> {
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: change.kind,
      workflowType: 'changeInstanceNetwork',
      input: (operation) => ({ operation, change }),
      correlationId,
      // A change whose workflow never started is taken back, as its run would on failure.
      undoIfNotStarted: (db) => revertNetworkChange(db, instance.id, change),
    },
    async (trx) => {
      await write(trx);
      await bumpRevision(trx, instance.id, 'network');
      if (change.kind === 'floating_ip_move') await bumpRevision(trx, change.from.instanceId, 'network');
    },
  );
}

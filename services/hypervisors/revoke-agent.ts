import { revokeHypervisorCredentials } from '../../db/repositories/accounts/agent-credentials.js';
import {
  findHypervisor,
  type Hypervisor,
  setHypervisorStatus,
} from '../../db/repositories/hypervisors/hypervisors.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/**
 * Ends the hypervisor's agent credential and any unused enrollment token at once; the hypervisor
 * is `revoked` until an agent enrolls again with a new token.
 */
export async function revokeAgent(
  deps: Pick<ServiceDeps, 'db' | 'logger'>,
  request: { readonly hypervisorId: string },
): Promise<Hypervisor> {
  const id = request.hypervisorId;
  const row = await deps.db.transaction().execute(async (trx) => {
    if (!(await findHypervisor(trx, id))) return undefined;
    await revokeHypervisorCredentials(trx, id);
    await setHypervisorStatus(trx, id, 'revoked');
    return findHypervisor(trx, id);
  });
  if (!row) throw notFound();
  deps.logger.info('agent credential revoked', { hypervisor_id: id });
  return row;
}

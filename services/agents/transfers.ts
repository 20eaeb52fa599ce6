import { redeemTransferToken } from '../../db/repositories/moves/transfer-tokens.js';
import { hashToken } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import { secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';

/**
 * The receiving agent redeems a migration's transfer token (SPEC.md §6 rule 2): once, before it
 * expires, only on the migration's target, and only after the sender has offered the disk. It
 * learns where the sender offers it; a replayed, foreign or expired token learns nothing.
 */
export async function redeemTransfer(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'logger'>,
  agent: AgentActor,
  token: string,
): Promise<{ migration_uuid: string; disk: string; endpoint: string }> {
  const redeemed = await redeemTransferToken(deps.db, hashToken(token), agent.hypervisorId);
  if (!redeemed?.endpoint_sealed) {
    deps.logger.warn('transfer token refused', { hypervisor_id: agent.hypervisorId });
    throw new ApiError('SVC-TRANSFER-401');
  }
  deps.logger.info('transfer token redeemed', {
    hypervisor_id: agent.hypervisorId,
    migration_id: redeemed.migration_id,
    disk: redeemed.disk,
  });
  return {
    migration_uuid: redeemed.migration_id,
    disk: redeemed.disk,
    endpoint: secretBox(deps.config.SECRETS_KEY).open(redeemed.endpoint_sealed),
  };
}

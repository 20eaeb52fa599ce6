import { revokeUnusedEnrollmentTokens } from '../../db/repositories/accounts/agent-credentials.js';
import { insertCredential } from '../../db/repositories/accounts/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { issueSecret } from '../../domain/credentials.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

export interface IssuedEnrollmentToken {
  /** Shown once; only its hash is stored. */
  readonly token: string;
  readonly hypervisorId: string;
  readonly expiresAt: Date;
}

/**
 * Issues the one-time token an agent exchanges for its credential, valid for
 * ENROLLMENT_TOKEN_TTL_MS. A hypervisor has at most one usable token: a new one voids the earlier.
 */
export async function issueEnrollmentToken(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: { readonly hypervisorId: string },
): Promise<IssuedEnrollmentToken> {
  const hypervisor = await findHypervisor(deps.db, request.hypervisorId);
  if (!hypervisor) throw notFound();
  const secret = issueSecret('enrollment');
  const expiresAt = new Date(Date.now() + deps.config.ENROLLMENT_TOKEN_TTL_MS);
  await deps.db.transaction().execute(async (trx) => {
    await revokeUnusedEnrollmentTokens(trx, hypervisor.id);
    await insertCredential(trx, {
      type: 'enrollment',
      tokenHash: secret.hash,
      hint: secret.hint,
      hypervisorId: hypervisor.id,
      expiresAt,
    });
  });
  return { token: secret.token, hypervisorId: hypervisor.id, expiresAt };
}

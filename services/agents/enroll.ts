import {
  consumeEnrollmentToken,
  revokeHypervisorCredentials,
} from '../../db/repositories/accounts/agent-credentials.js';
import { insertCredential } from '../../db/repositories/accounts/credentials.js';
import { hitRateLimit } from '../../db/repositories/accounts/rate-limits.js';
import { markEnrolled } from '../../db/repositories/hypervisors/hypervisors.js';
import { hashToken, issueSecret } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { catchUpImages } from '../images/catch-up.js';

export interface Enrollment {
  readonly token: string;
  readonly agentVersion: string;
  /** The caller's address, which the enrollment rate limit is kept per. */
  readonly clientIp: string;
}

export interface EnrolledAgent {
  /** The agent credential, shown once. */
  readonly credential: string;
  readonly hypervisorId: string;
}

/**
 * Exchanges a one-time enrollment token for the hypervisor's agent credential, ending any earlier
 * credential of the hypervisor; the hypervisor, online now, fetches the image versions of its
 * location and removes the deleted versions' copies it still holds (after the commit). Each address may fail ENROLLMENT_RATE_LIMIT_PER_MINUTE times a
 * minute (SPEC.md: a dedicated per-IP limit); a valid token is never refused by that limit.
 */
export async function enrollAgent(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  enrollment: Enrollment,
): Promise<EnrolledAgent> {
  const { db, config } = deps;
  const secret = issueSecret('agent');
  const hypervisorId = await db.transaction().execute(async (trx) => {
    const spent = await consumeEnrollmentToken(trx, hashToken(enrollment.token));
    if (!spent) return undefined;
    await revokeHypervisorCredentials(trx, spent.hypervisorId);
    await insertCredential(trx, {
      type: 'agent',
      tokenHash: secret.hash,
      hint: secret.hint,
      hypervisorId: spent.hypervisorId,
    });
    await markEnrolled(trx, spent.hypervisorId, enrollment.agentVersion);
    return spent.hypervisorId;
  });
  if (!hypervisorId) {
    // Only failures count. A valid token is accepted even from an address over its limit: hosts
    // behind one NAT, or agents behind a proxy the API does not trust, share an address with
    // whoever failed there. A token is 256 random bits, so letting a guess be checked while the
    // address is limited gives a guesser nothing; the limit keeps the failures' rate down.
    const verdict = await hitRateLimit(db, {
      key: `enroll:${enrollment.clientIp}`,
      limit: config.ENROLLMENT_RATE_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    });
    if (!verdict.allowed)
      throw new ApiError('SVC-REQ-429', { headers: { 'Retry-After': String(verdict.retryAfterSeconds) } });
    throw new ApiError('SVC-ENROLL-401');
  }
  deps.logger.info('agent enrolled', { hypervisor_id: hypervisorId, agent_version: enrollment.agentVersion });
  await catchUpImages(deps, hypervisorId).catch((error: unknown) =>
    deps.logger.warn('image catch-up failed', { hypervisor_id: hypervisorId, error: String(error) }),
  );
  return { credential: secret.token, hypervisorId };
}

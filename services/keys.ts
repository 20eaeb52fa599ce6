import { createCredential, revokeCredential } from '../db/repositories/credentials.js';
import { findUserByEmail } from '../db/repositories/users.js';
import { ApiError, notFound } from '../domain/errors.js';
import type { ServiceDeps } from './context.js';

/** Client and application keys belong to a user; a console-gateway credential to no one. */
export type KeyRequest =
  | { readonly type: 'client' | 'application'; readonly userEmail: string; readonly label: string | null }
  | { readonly type: 'console_gateway'; readonly label: string | null };

export interface IssuedKey {
  readonly id: string;
  /** Shown once; only its hash is stored. */
  readonly token: string;
  readonly hint: string;
}

/**
 * Issues a key. An unknown user is SVC-RES-404. Application keys go only to administrators
 * (SVC-REQ-400 otherwise); a key already issued stops working if its user is later demoted.
 */
export async function issueKey(deps: Pick<ServiceDeps, 'db'>, request: KeyRequest): Promise<IssuedKey> {
  let userId: string | null = null;
  if (request.type !== 'console_gateway') {
    const user = await findUserByEmail(deps.db, request.userEmail);
    if (!user) throw notFound();
    if (request.type === 'application' && !user.is_admin) {
      throw new ApiError('SVC-REQ-400', {
        fields: [{ field: 'user', detail: 'Application keys are issued only to administrators.' }],
      });
    }
    userId = user.id;
  }
  const issued = await createCredential(deps.db, { type: request.type, userId, label: request.label });
  return { id: issued.id, token: issued.token, hint: issued.hint };
}

/**
 * Revokes a client key, application key or console-gateway credential by its id or its hint;
 * agent credentials are revoked per hypervisor instead. Returns the ids revoked; SVC-RES-404 when
 * no active key matches.
 */
export async function revokeKey(deps: Pick<ServiceDeps, 'db'>, request: { readonly idOrHint: string }) {
  const revoked = await revokeCredential(deps.db, request.idOrHint);
  if (revoked.length === 0) throw notFound();
  return revoked;
}

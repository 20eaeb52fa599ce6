import { createCredential } from '../db/repositories/accounts/credentials.js';
import {
  pinUserKey,
  revokeConsoleGatewayCredential,
  revokeCredential,
  revokeUserKey,
} from '../db/repositories/accounts/keys.js';
import { findUserByEmail } from '../db/repositories/accounts/users.js';
import type { ApiVersion } from '../domain/api-versions/versions.js';
import { ApiError, notFound } from '../domain/errors.js';
import type { ServiceDeps } from './context.js';

/** Client and application keys belong to a user; a console-gateway credential to no one. */
export type KeyRequest =
  | {
      readonly type: 'client' | 'application';
      readonly userEmail: string;
      readonly label: string | null;
      /** The key's pin; the current version if not given (docs/api.md "Versions"). */
      readonly apiVersion?: ApiVersion;
    }
  | { readonly type: 'console_gateway'; readonly label: string | null };

export interface IssuedKey {
  readonly id: string;
  /** Shown once; only its hash is stored. */
  readonly token: string;
  readonly hint: string;
  /** The API version a client or application key is pinned to; null for other credentials. */
  readonly apiVersion: string | null;
}

/**
 * Issues a key. An unknown user is SVC-RES-404. Application keys go only to administrators
 * (SVC-REQ-400 otherwise); a key already issued stops working if its user is later demoted.
 */
export async function issueKey(deps: Pick<ServiceDeps, 'db'>, request: KeyRequest): Promise<IssuedKey> {
  if (request.type === 'console_gateway') {
    const issued = await createCredential(deps.db, {
      type: request.type,
      userId: null,
      label: request.label,
    });
    return { id: issued.id, token: issued.token, hint: issued.hint, apiVersion: issued.apiVersion };
  }
  const user = await findUserByEmail(deps.db, request.userEmail);
  if (!user) throw notFound();
  return issueUserKey(deps, user, request);
}

/** Issues a client or application key to `user` (an application key only to an administrator). */
export async function issueUserKey(
  deps: Pick<ServiceDeps, 'db'>,
  user: { id: string; is_admin: boolean },
  request: {
    readonly type: 'client' | 'application';
    readonly label: string | null;
    /** The key's pin; the current version if not given (docs/api.md "Versions"). */
    readonly apiVersion?: ApiVersion;
  },
  /** The input that named what is refused: the CLI's user, the API's key type. */
  field = 'user',
): Promise<IssuedKey> {
  if (request.type === 'application' && !user.is_admin) {
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field, detail: 'Application keys are issued only to administrators.' }],
    });
  }
  const issued = await createCredential(deps.db, {
    type: request.type,
    userId: user.id,
    label: request.label,
    ...(request.apiVersion ? { apiVersion: request.apiVersion } : {}),
  });
  return { id: issued.id, token: issued.token, hint: issued.hint, apiVersion: issued.apiVersion };
}

/**
 * Pins one of the user's live client or application keys to `version`; SVC-RES-404 when the user
 * has no such live key. Its requests render in it within AUTH_CACHE_TTL_MS, as a revocation ends them.
 */
export async function pinKeyOfUser(
  deps: Pick<ServiceDeps, 'db'>,
  userId: string,
  keyId: string,
  version: ApiVersion,
) {
  const row = await pinUserKey(deps.db, userId, keyId, version);
  if (!row) throw notFound();
  return row;
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

/** Revokes one of the user's client or application keys; SVC-RES-404 when the user has no such live key. */
export async function revokeKeyOfUser(
  deps: Pick<ServiceDeps, 'db'>,
  userId: string,
  keyId: string,
): Promise<void> {
  if (!(await revokeUserKey(deps.db, userId, keyId))) throw notFound();
}

/** Revokes one console-gateway credential; SVC-RES-404 when there is no such live credential. */
export async function revokeConsoleGatewayKey(
  deps: Pick<ServiceDeps, 'db'>,
  credentialId: string,
): Promise<void> {
  if (!(await revokeConsoleGatewayCredential(deps.db, credentialId))) throw notFound();
}

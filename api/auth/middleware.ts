import type { MiddlewareHandler } from 'hono';
import type { ActiveCredential } from '../../db/repositories/accounts/active-credentials.js';
import { pinnedVersion } from '../../domain/api-versions/versions.js';
import { type CredentialType, claimedType, wrongCredentialDetail } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv, Principal } from '../../http/context.js';

/**
 * One middleware per credential type (SPEC.md §5): a token of another type is refused with 403,
 * a missing, unknown, revoked or expired one with 401.
 */
function requireCredential(type: CredentialType): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
    if (!token) throw new ApiError('SVC-AUTH-401', { headers: { 'WWW-Authenticate': 'Bearer' } });

    const credential = await c.get('deps').credentials.resolve(token);
    if (!credential || credential.type !== claimedType(token)) {
      throw new ApiError('SVC-AUTH-401', { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    if (credential.type !== type) {
      throw new ApiError('SVC-AUTH-403', { detail: wrongCredentialDetail(type, credential.type) });
    }

    c.set('principal', principalOf(credential));
    await next();
  };
}

/** The credential as its API sees it; one without the owner its type needs is no credential. */
function principalOf(credential: ActiveCredential): Principal {
  const { id: credentialId, userId, hypervisorId } = credential;
  switch (credential.type) {
    case 'client':
      if (userId)
        return { type: 'client', credentialId, userId, apiVersion: pinnedVersion(credential.apiVersion) };
      break;
    case 'application':
      if (userId)
        return {
          type: 'application',
          credentialId,
          userId,
          apiVersion: pinnedVersion(credential.apiVersion),
        };
      break;
    case 'agent':
      if (hypervisorId) return { type: 'agent', credentialId, hypervisorId };
      break;
    case 'console_gateway':
      return { type: 'console_gateway', credentialId };
  }
  throw new ApiError('SVC-AUTH-401', { headers: { 'WWW-Authenticate': 'Bearer' } });
}

export const requireClientKey = requireCredential('client');
export const requireApplicationKey = requireCredential('application');
export const requireAgentCredential = requireCredential('agent');
export const requireGatewayCredential = requireCredential('console_gateway');

import type { MiddlewareHandler } from 'hono';
import { type CredentialType, claimedType } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../context.js';

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
    if (credential.type !== type) throw new ApiError('SVC-AUTH-403');

    c.set('principal', {
      credentialId: credential.id,
      type: credential.type,
      userId: credential.userId,
      hypervisorId: credential.hypervisorId,
    });
    await next();
  };
}

export const requireClientKey = requireCredential('client');
export const requireApplicationKey = requireCredential('application');
export const requireAgentCredential = requireCredential('agent');
export const requireGatewayCredential = requireCredential('console_gateway');

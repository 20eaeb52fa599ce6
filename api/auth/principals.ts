import type { Context } from 'hono';
import type { Actor, Customer } from '../../domain/actors.js';
import type { AppEnv, Principal } from '../../http/context.js';
import type { AgentActor } from '../../services/agents/actor.js';

/**
 * The request's principal as the API it came through knows it. Each API's authentication
 * middleware sets a principal of its credential type, so a mismatch here is a route mounted
 * without its middleware: a fault of ours (500), never the caller's.
 */
function principalOfType<T extends Principal['type']>(
  c: Context<AppEnv>,
  ...types: T[]
): Extract<Principal, { type: T }> {
  const principal = c.get('principal');
  if (!principal || !(types as string[]).includes(principal.type)) {
    throw new Error(`route needs a ${types.join(' or ')} credential, and its authentication did not run`);
  }
  return principal as Extract<Principal, { type: T }>;
}

/** The customer whose client key made the request (Client API). */
export const customerId = (c: Context<AppEnv>): string => principalOfType(c, 'client').userId;

/** The customer, as the services record who asked. */
export const customerActor = (c: Context<AppEnv>): Customer => ({
  type: 'user',
  userId: customerId(c),
});

/** The administrator behind the application key (Application and admin APIs). */
export const adminActor = (c: Context<AppEnv>): Extract<Actor, { type: 'admin' }> => ({
  type: 'admin',
  userId: principalOfType(c, 'application').userId,
});

/** The agent of one hypervisor, by the credential it enrolled with (Agent API). */
export function agentActor(c: Context<AppEnv>): AgentActor {
  const { hypervisorId, credentialId } = principalOfType(c, 'agent');
  return { hypervisorId, credentialId };
}

/** The console gateway's credential (console gateway internal API). */
export const gatewayCredentialId = (c: Context<AppEnv>): string =>
  principalOfType(c, 'console_gateway').credentialId;

/** The client or application key behind the request, and the token it was presented as. */
export function keyOf(c: Context<AppEnv>): { readonly credentialId: string; readonly token: string } {
  const { credentialId } = principalOfType(c, 'client', 'application');
  // The authentication middleware read the same header, so it holds a bearer token here.
  const token = c.req.header('authorization')?.slice('Bearer '.length).trim() ?? '';
  return { credentialId, token };
}

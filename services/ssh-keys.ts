import { isUniqueViolation } from '../db/errors.js';
import {
  deleteSshKeyOfUser,
  insertSshKeyWithin,
  renameSshKeyOfUser,
  type SshKeyRow,
} from '../db/repositories/accounts/ssh-keys.js';
import { recordActivity } from '../db/repositories/events/activity-log.js';
import { actorName, type Customer } from '../domain/actors.js';
import { ApiError, notFound } from '../domain/errors.js';
import { parseSshPublicKey } from '../domain/ssh-keys.js';
import type { ServiceDeps } from './context.js';

export interface NewSshKeyRequest {
  readonly name: string;
  readonly publicKey: string;
  readonly correlationId: string | null;
}

/**
 * Adds one of the customer's SSH public keys: the key must parse for real (domain/ssh-keys.ts),
 * and a user holds at most SSH_KEYS_MAX_PER_USER keys, each name and each key once.
 */
export async function createSshKey(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  actor: Customer,
  request: NewSshKeyRequest,
): Promise<SshKeyRow> {
  const parsed = parseSshPublicKey(request.publicKey);
  if (!parsed.ok) {
    throw new ApiError(parsed.code, { fields: [{ field: 'public_key', detail: parsed.detail }] });
  }
  const limit = deps.config.SSH_KEYS_MAX_PER_USER;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await insertSshKeyWithin(
        trx,
        {
          userId: actor.userId,
          name: request.name,
          publicKey: parsed.key.publicKey,
          fingerprint: parsed.key.fingerprint,
        },
        limit,
      );
      if (!row) {
        throw new ApiError('SVC-CONFLICT-409', {
          detail: `An account holds at most ${limit} SSH keys; delete one first.`,
        });
      }
      await record(trx, actor, 'ssh_key.created', row, request.correlationId);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(error);
    throw error;
  }
}

export async function renameSshKey(
  deps: Pick<ServiceDeps, 'db'>,
  actor: Customer,
  request: { readonly keyId: string; readonly name: string; readonly correlationId: string | null },
): Promise<SshKeyRow> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await renameSshKeyOfUser(trx, actor.userId, request.keyId, request.name);
      if (!row) throw notFound();
      await record(trx, actor, 'ssh_key.renamed', row, request.correlationId);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(error);
    throw error;
  }
}

export async function deleteSshKey(
  deps: Pick<ServiceDeps, 'db'>,
  actor: Customer,
  request: { readonly keyId: string; readonly correlationId: string | null },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await deleteSshKeyOfUser(trx, actor.userId, request.keyId);
    if (!row) throw notFound();
    await record(trx, actor, 'ssh_key.deleted', row, request.correlationId);
  });
}

function duplicate(error: unknown): ApiError {
  const constraint = (error as { constraint?: unknown }).constraint;
  return new ApiError('SVC-CONFLICT-409', {
    detail:
      constraint === 'ssh_keys_user_fingerprint'
        ? 'This key is already on your account.'
        : 'An SSH key with this name already exists.',
    cause: error,
  });
}

function record(
  db: Parameters<typeof recordActivity>[0],
  actor: Customer,
  event: string,
  key: { id: string; name: string; fingerprint: string },
  correlationId: string | null,
) {
  return recordActivity(db, {
    userId: actor.userId,
    actor: actorName(actor),
    event,
    detail: { ssh_key_id: key.id, name: key.name, fingerprint: key.fingerprint },
    correlationId,
  });
}

import { isUniqueViolation } from '../db/errors.js';
import { insertUser, type UserRow, updateUser } from '../db/repositories/accounts/users.js';
import { ApiError, notFound } from '../domain/errors.js';
import type { ServiceDeps } from './context.js';

export interface NewUser {
  readonly email: string;
  readonly name: string;
  /** An administrator may hold application keys. */
  readonly isAdmin: boolean;
  /** A billing system's own id for the user; null: none. */
  readonly externalId?: string | null;
}

/** A unique index refused the write: the external id is another user's, or else the email is. */
function takenBy(error: unknown): ApiError | undefined {
  if (isUniqueViolation(error, 'users_external_id'))
    return new ApiError('EXTERNAL_ID_TAKEN', { detail: 'Another user has this external_id.', cause: error });
  if (isUniqueViolation(error))
    return new ApiError('SVC-CONFLICT-409', { detail: 'A user with this email exists.', cause: error });
  return undefined;
}

/**
 * Creates a customer or an administrator; an email is one user's (case-insensitively), an
 * external id one user's (exactly). The unique indexes decide two creates at once.
 */
export async function createUser(deps: Pick<ServiceDeps, 'db'>, user: NewUser) {
  try {
    return await insertUser(deps.db, user);
  } catch (error) {
    throw takenBy(error) ?? error;
  }
}

/**
 * Renames, promotes or demotes, disables or enables a user. A disabled user's keys are refused
 * everywhere (their instances stay); a demoted one's application keys stop working. An
 * administrator cannot disable or demote themselves: the plane would be left to no one they know.
 */
export async function editUser(
  deps: Pick<ServiceDeps, 'db'>,
  by: { userId: string },
  userId: string,
  fields: { name?: string; is_admin?: boolean; disabled?: boolean; external_id?: string | null },
): Promise<UserRow> {
  if (userId === by.userId && (fields.is_admin === false || fields.disabled === true))
    throw new ApiError('SVC-CONFLICT-409', {
      detail: 'An administrator cannot disable or demote themselves; another administrator can.',
    });
  const row = await updateUser(deps.db, userId, fields).catch((error: unknown) => {
    throw takenBy(error) ?? error;
  });
  if (!row) throw notFound();
  return row;
}

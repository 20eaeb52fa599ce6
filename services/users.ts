import { isUniqueViolation } from '../db/errors.js';
import { insertUser, type UserRow, updateUser } from '../db/repositories/users.js';
import { ApiError, notFound } from '../domain/errors.js';
import type { ServiceDeps } from './context.js';

export interface NewUser {
  readonly email: string;
  readonly name: string;
  /** An administrator may hold application keys. */
  readonly isAdmin: boolean;
}

/** Creates a customer or an administrator; an email is one user's (case-insensitively). */
export async function createUser(deps: Pick<ServiceDeps, 'db'>, user: NewUser) {
  try {
    return await insertUser(deps.db, user);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError('SVC-CONFLICT-409', { detail: 'A user with this email exists.', cause: error });
    }
    throw error;
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
  fields: { name?: string; is_admin?: boolean; disabled?: boolean },
): Promise<UserRow> {
  if (userId === by.userId && (fields.is_admin === false || fields.disabled === true))
    throw new ApiError('SVC-CONFLICT-409', {
      detail: 'An administrator cannot disable or demote themselves; another administrator can.',
    });
  const row = await updateUser(deps.db, userId, fields);
  if (!row) throw notFound();
  return row;
}

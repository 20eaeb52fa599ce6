import { isUniqueViolation } from '../db/errors.js';
import { insertUser } from '../db/repositories/users.js';
import { ApiError } from '../domain/errors.js';
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

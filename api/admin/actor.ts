import type { Context } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { Actor } from '../../services/context.js';
import type { AppEnv } from '../context.js';

/** The administrator behind the application key, as the services record who asked. */
export function adminActor(c: Context<AppEnv>): Actor {
  const { userId } = c.get('principal');
  // Application keys are issued to administrators only; a key of no one may act for no one.
  if (!userId) throw new ApiError('SVC-AUTH-403');
  return { type: 'admin', userId };
}

import {
  findInstanceOfUser,
  passwordWindow,
  takeInstancePassword,
} from '../../db/repositories/instances/instances.js';
import type { Customer } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { generatePassword, secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';

/** A new root password, sealed for the workflow input and the instance row. */
export function sealedNewPassword(deps: Pick<ServiceDeps, 'config'>): string {
  if (!deps.config.SECRETS_KEY) {
    throw new ApiError('SVC-CONFIG-503', {
      detail: 'Passwords cannot be issued: the service has no secrets key.',
    });
  }
  return secretBox(deps.config.SECRETS_KEY).seal(generatePassword());
}

/**
 * The show-once read (SPEC.md §8): the first read within the window gets the password and ends
 * the window; any later read, or one after the window, gets 410.
 */
export async function revealPassword(
  deps: ServiceDeps,
  actor: Customer,
  instanceId: string,
): Promise<{ password: string; visibleUntil: Date }> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, instanceId);
  if (!instance) throw notFound();
  const window = await passwordWindow(deps.db, instance.id);
  const sealed = await takeInstancePassword(deps.db, instance.id);
  if (!sealed || !window?.password_visible_until) throw new ApiError('SVC-PASSWORD-410');
  deps.logger.info('instance password shown', { instance_id: instance.id });
  return {
    password: secretBox(deps.config.SECRETS_KEY).open(sealed),
    visibleUntil: window.password_visible_until,
  };
}

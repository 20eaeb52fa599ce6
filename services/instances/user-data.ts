import type { StoredUserData } from '../../db/repositories/instances/instance-user-data.js';
import { ApiError } from '../../domain/errors.js';
import { judgeUserData } from '../../domain/instances/user-data-verdict.js';
import { secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';

/**
 * A request's `user_data` (base64) judged and sealed for the instance and the workflow's input; a
 * refusal is a 400 naming `user_data`, before anything is written.
 */
export function acceptUserData(deps: Pick<ServiceDeps, 'config'>, encoded: string): StoredUserData {
  const verdict = judgeUserData(encoded);
  if (!verdict.ok)
    throw new ApiError(verdict.code, { fields: [{ field: 'user_data', detail: verdict.detail }] });
  if (!deps.config.SECRETS_KEY)
    throw new ApiError('SVC-CONFIG-503', {
      detail: 'User-data cannot be kept: the service has no secrets key.',
    });
  const { text, kind, bytes, sha256 } = verdict.userData;
  return { kind, bytes, sha256, sealed: secretBox(deps.config.SECRETS_KEY).seal(text) };
}

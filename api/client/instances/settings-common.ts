import { conflictResponse } from '../../schemas.js';

/** What every settings route says about when it is refused; the three routes share the rule. */
export const SETTINGS_REFUSALS =
  'Refused while another operation runs on the instance (SVC-OP-409) or it is being migrated ' +
  '(INSTANCE_MIGRATING); nothing changes then. Sending the value the instance already has is accepted.';

export const settingsConflictResponse = conflictResponse(
  'Another operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING).',
);

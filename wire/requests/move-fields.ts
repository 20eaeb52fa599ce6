import { text } from '../../domain/input-bounds.js';
import { MOVE_MODES, RECOVERY_DECISIONS } from '../../domain/moves/states.js';
import { z } from '../zod.js';

/** Request fields every kind of move takes (a migration, a storage move, an evacuation's moves). */
export const moveMode = z.enum(MOVE_MODES).openapi({
  description:
    'LIVE_REQUIRED: live or not at all; LIVE_IF_POSSIBLE: live, else cold with a warning; AUTO: live when ' +
    'possible and MIGRATION_AUTO_LIVE allows; COLD: never live.',
  example: 'AUTO',
});

export const reason = text({ max: 500, trim: true, multiline: true }).openapi({
  description: 'Why; recorded in the migration’s history.',
  example: 'Host maintenance',
});

/** A cancel's or rollback's body. */
export const ReasonBody = z.strictObject({ reason });

/**
 * A recovery decision's body, named `name` in the OpenAPI document; `decisions` says what each
 * decision does to this kind of move.
 */
export const recoveryBody = (name: string, decisions: string) =>
  z
    .strictObject({ decision: z.enum(RECOVERY_DECISIONS).openapi({ description: decisions }), reason })
    .openapi(name);

import { text } from '../../domain/input-bounds.js';
import { MIGRATION_MODES } from '../../domain/migrations/states.js';
import { z } from '../zod.js';

/** Request fields the migration routes share. */
export const migrationMode = z.enum(MIGRATION_MODES).openapi({
  description:
    'LIVE_REQUIRED: live or not at all; LIVE_IF_POSSIBLE: live, else cold with a warning; AUTO: live when ' +
    'possible and MIGRATION_AUTO_LIVE allows; COLD: never live.',
  example: 'AUTO',
});

export const targetHypervisor = z
  .string()
  .uuid()
  .optional()
  .openapi({ description: 'Omitted: the best candidate of the preflight.' });

export const reason = text({ max: 500, trim: true, multiline: true }).openapi({
  description: 'Why; recorded in the migration’s history.',
  example: 'Host maintenance',
});

export const ReasonBody = z.strictObject({ reason });

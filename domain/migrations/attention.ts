import type { MigrationState } from './states.js';

/**
 * Which migrations an administrator must look at first (docs/admin-pages.md, `migration:health`):
 * those waiting in RECOVERY_REQUIRED for a decision, and those stuck, under way yet unchanged for
 * longer than MIGRATION_LONG_TRANSFER_S. States that may last by design are never stuck: the ends,
 * COMPLETED (the source is kept for the retention window) and RECOVERY_REQUIRED itself.
 */
export const QUIET_STATES: readonly MigrationState[] = [
  'COMPLETED',
  'CLEANED_UP',
  'ROLLED_BACK',
  'RECOVERY_REQUIRED',
];

export type Attention = 'recovery_required' | 'stuck';

export function attentionOf(
  migration: { state: MigrationState; updatedAt: Date },
  now: Date,
  stuckAfterMs: number,
): Attention | undefined {
  if (migration.state === 'RECOVERY_REQUIRED') return 'recovery_required';
  if (QUIET_STATES.includes(migration.state)) return undefined;
  return now.getTime() - migration.updatedAt.getTime() > stuckAfterMs ? 'stuck' : undefined;
}

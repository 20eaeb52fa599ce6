import {
  listMigrations,
  listMigrationsNeedingAttention as listNeedingAttention,
  type MigrationFilters,
} from '../../db/repositories/moves/migration-lists.js';
import { findMigration, type MigrationRecord } from '../../db/repositories/moves/migration-records.js';
import { notFound } from '../../domain/errors.js';
import type { ListRequest } from '../../domain/pagination.js';
import type { ServiceDeps } from '../context.js';

// What the admin API, the CLI and the admin pages read of migrations: one place, so a page and
// the API answer the same records.

export async function getMigration(
  deps: Pick<ServiceDeps, 'db'>,
  migrationId: string,
): Promise<MigrationRecord> {
  const migration = await findMigration(deps.db, migrationId);
  if (!migration) throw notFound();
  return migration;
}

/** Newest first; the filters combine. */
export function listMigrationPage(
  deps: Pick<ServiceDeps, 'db'>,
  filters: MigrationFilters,
  request: ListRequest,
) {
  return listMigrations(deps.db, filters, request);
}

/** The most that the pages list above the others (the total says how many more there are). */
const ATTENTION_SHOWN = 50;

/**
 * Of the migrations the filters pick, those waiting in RECOVERY_REQUIRED and those stuck (no
 * change for MIGRATION_LONG_TRANSFER_S), the longest waiting first (domain/migrations/attention.ts).
 */
export function listMigrationsNeedingAttention(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  filters: MigrationFilters,
) {
  return listNeedingAttention(deps.db, filters, {
    stuckAfterMs: deps.config.MIGRATION_LONG_TRANSFER_S * 1000,
    limit: ATTENTION_SHOWN,
  });
}

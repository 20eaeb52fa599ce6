import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/migration.md "Convergence": each migration records the convergence policy in force (the
  // request's figures over the configured defaults); an evacuation, the policy its moves take.
  // Null for those recorded before a move had one (they ran with QEMU's own defaults).
  await db.schema.alterTable('migrations').addColumn('convergence', 'jsonb').execute();
  await db.schema.alterTable('evacuations').addColumn('convergence', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('evacuations').dropColumn('convergence').execute();
  await db.schema.alterTable('migrations').dropColumn('convergence').execute();
}

import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The instance envelope's `virtualization` and `boot_order` are enums (SPEC.md §2 leaves their
  // values open; domain/catalog.ts VIRTUALIZATIONS and domain/instances/statuses.ts BOOT_DEVICES):
  // a value outside them never reaches a response, because it never reaches the table.
  await db.schema
    .alterTable('instances')
    .addCheckConstraint('instances_virtualization', sql`virtualization in ('kvm')`)
    .execute();
  await db.schema
    .alterTable('instances')
    .addCheckConstraint(
      'instances_boot_order',
      sql`jsonb_typeof(boot_order) = 'array' and jsonb_array_length(boot_order) > 0
          and boot_order <@ '["disk", "cdrom", "network"]'::jsonb`,
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('instances').dropConstraint('instances_boot_order').execute();
  await db.schema.alterTable('instances').dropConstraint('instances_virtualization').execute();
}

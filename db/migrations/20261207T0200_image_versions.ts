import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "Image versions": an image's disk fetched by the hypervisors from a URL, checked
  // against the checksum the administrator gave. Numbered per image; new orders take the newest
  // one that is ready and not deprecated.
  await db.schema
    .createTable('image_versions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('image_id', 'uuid', (c) => c.notNull().references('images.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('checksum_algorithm', 'text', (c) =>
      c.notNull().check(sql`checksum_algorithm in ('sha256', 'sha512')`),
    )
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('qcow2', 'raw')`))
    .addColumn('deprecated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('image_versions_image_version', ['image_id', 'version'])
    .execute();
  await sql`alter table image_versions add constraint image_versions_checksum_shape
    check (checksum ~ case checksum_algorithm when 'sha256' then '^[0-9a-f]{64}$' else '^[0-9a-f]{128}$' end)`.execute(
    db,
  );

  // The locations a version is distributed to: every hypervisor of them fetches it, one that
  // joins later included.
  await db.schema
    .createTable('image_version_locations')
    .addColumn('image_version_id', 'uuid', (c) =>
      c.notNull().references('image_versions.id').onDelete('cascade'),
    )
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('image_version_locations_pk', ['image_version_id', 'location_id'])
    .execute();

  // What each hypervisor holds of a version: its fetch's state, and why it failed.
  await db.schema
    .createTable('image_version_hosts')
    .addColumn('image_version_id', 'uuid', (c) =>
      c.notNull().references('image_versions.id').onDelete('cascade'),
    )
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'fetching', 'ready', 'failed')`),
    )
    .addColumn('size_mb', 'integer')
    .addColumn('error', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('image_version_hosts_pk', ['image_version_id', 'hypervisor_id'])
    .execute();
  await sql`alter table image_version_hosts add constraint image_version_hosts_failed_with_reason
    check ((state = 'failed') = (error is not null))`.execute(db);
  await db.schema
    .createIndex('image_version_hosts_hypervisor')
    .on('image_version_hosts')
    .columns(['hypervisor_id', 'state'])
    .execute();

  // The version an instance's disk was written from; none for an image without versions.
  await db.schema
    .alterTable('instances')
    .addColumn('image_version_id', 'uuid', (c) => c.references('image_versions.id'))
    .execute();
  await db.schema
    .createIndex('instances_image_version')
    .on('instances')
    .column('image_version_id')
    .where('image_version_id', 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('instances').dropColumn('image_version_id').execute();
  await db.schema.dropTable('image_version_hosts').execute();
  await db.schema.dropTable('image_version_locations').execute();
  await db.schema.dropTable('image_versions').execute();
}

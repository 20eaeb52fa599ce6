import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

/** The version everything made before versions existed was built against (docs/api-changelog.md). */
const FIRST_VERSION = '2026-11-22';
const DATED = sql`'^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "Versions": a client or application key is pinned to the version it was issued
  // in; an administrator may move it. Keys issued before keep what they were built against.
  await db.schema.alterTable('credentials').addColumn('api_version', 'text').execute();
  await sql`update credentials set api_version = ${FIRST_VERSION} where type in ('client', 'application')`.execute(
    db,
  );
  await sql`
    alter table credentials
      add constraint credentials_api_version check (
        (api_version is not null) = (type in ('client', 'application')) and api_version ~ ${DATED})`.execute(
    db,
  );

  // A webhook endpoint is pinned as a key is; each delivery keeps the version of its endpoint when
  // it was made, so every attempt and redelivery sends the same bytes.
  for (const table of ['webhook_endpoints', 'webhook_deliveries']) {
    await db.schema
      .alterTable(table)
      .addColumn('api_version', 'text', (c) =>
        c.notNull().defaultTo(FIRST_VERSION).check(sql`api_version ~ ${DATED}`),
      )
      .execute();
    await db.schema
      .alterTable(table)
      .alterColumn('api_version', (c) => c.dropDefault())
      .execute();
  }

  // webhook_endpoint.disabled carries the endpoint as its API shows it, now with its version.
  await sql`
    create or replace function outbox_webhook_endpoint_events() returns trigger language plpgsql as $$
    begin
      if old.enabled and not new.enabled and new.disabled_reason = 'failing' then
        insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
        values ('webhook_endpoint.disabled', 'webhook_endpoint', new.id, new.id, new.user_id,
                jsonb_build_object(
                  'object', jsonb_build_object(
                    'id', new.id, 'user_id', new.user_id, 'url', new.url, 'description', new.description,
                    'event_types', to_jsonb(new.event_types), 'enabled', new.enabled,
                    'disabled_reason', new.disabled_reason, 'api_version', new.api_version,
                    'previous_secret_expires_at', new.previous_secret_expires_at,
                    'created_at', new.created_at, 'updated_at', new.updated_at),
                  'previous', jsonb_build_object('enabled', true)));
      end if;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function outbox_webhook_endpoint_events() returns trigger language plpgsql as $$
    begin
      if old.enabled and not new.enabled and new.disabled_reason = 'failing' then
        insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
        values ('webhook_endpoint.disabled', 'webhook_endpoint', new.id, new.id, new.user_id,
                jsonb_build_object(
                  'object', jsonb_build_object(
                    'id', new.id, 'user_id', new.user_id, 'url', new.url, 'description', new.description,
                    'event_types', to_jsonb(new.event_types), 'enabled', new.enabled,
                    'disabled_reason', new.disabled_reason,
                    'previous_secret_expires_at', new.previous_secret_expires_at,
                    'created_at', new.created_at, 'updated_at', new.updated_at),
                  'previous', jsonb_build_object('enabled', true)));
      end if;
      return null;
    end $$`.execute(db);
  for (const table of ['webhook_deliveries', 'webhook_endpoints'])
    await db.schema.alterTable(table).dropColumn('api_version').execute();
  await db.schema.alterTable('credentials').dropColumn('api_version').execute();
}

import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/events.md "An endpoint that keeps failing": the plane disables an endpoint that answered
  // no delivery with a 2xx for a whole retry window, and says why; its owner enabling it again
  // clears the reason.
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('disabled_reason', 'text', (c) => c.check(sql`disabled_reason in ('failing')`))
    .execute();

  // webhook_endpoint.disabled, recorded with the change as every event is: only when the plane
  // disabled it (its owner knows when they did). The secrets stay out.
  await sql`
    create function outbox_webhook_endpoint_events() returns trigger language plpgsql as $$
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
  await sql`
    create trigger webhook_endpoints_outbox after update of enabled on webhook_endpoints
    for each row execute function outbox_webhook_endpoint_events()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger webhook_endpoints_outbox on webhook_endpoints`.execute(db);
  await sql`drop function outbox_webhook_endpoint_events()`.execute(db);
  await db.schema.alterTable('webhook_endpoints').dropColumn('disabled_reason').execute();
}

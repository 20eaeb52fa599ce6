/**
 * The plane the list figures are read over, grown in place from one size to the next: instances
 * spread over 500 hypervisors and 100 owners (one in a hundred the bench customer's), migrations
 * with their histories, and activity-log entries (one in a hundred on the customer's busiest
 * instance). Rows are written in bulk by SQL, as a long-lived plane would hold them; the
 * credentials through the repositories.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { insertUser } from '../../db/repositories/accounts/users.js';
import { upsertLocation } from '../../db/repositories/catalogue/catalog.js';
import { happyPath } from '../../domain/migrations/states.js';
import { seedOnlineHypervisors } from '../admin-reads.js';

export interface ListSize {
  readonly instances: number;
  readonly migrations: number;
  readonly activity: number;
}

const HYPERVISORS = 500;
const OWNERS = 100;
const PREFIX = 'scale-list-';

export interface ListPlane {
  readonly adminKey: string;
  readonly customerKey: string;
  readonly customerId: string;
  /** The customer's instance the activity entries are written to. */
  readonly busyInstance: string;
  readonly hypervisor: string;
  /** Grows the plane to `size` (each count only grows). */
  grow(size: ListSize): Promise<void>;
}

export async function seedListPlane(db: Database, customer: { id: string; key: string }): Promise<ListPlane> {
  const location = await upsertLocation(db, { code: 'scale-lists', name: 'Scale lists' });
  await seedOnlineHypervisors(db, location.id, HYPERVISORS, PREFIX);
  await sql`
    insert into users (email, name, created_at)
    select ${PREFIX} || g || '@example.test', 'Owner ' || g, now() from generate_series(1, ${OWNERS - 1}) g`.execute(
    db,
  );
  const admin = await insertUser(db, { email: `${PREFIX}admin@example.test`, name: 'Admin', isAdmin: true });
  const adminKey = (await createCredential(db, { type: 'application', userId: admin.id })).token;
  const ids = async (query: ReturnType<typeof sql<{ id: string }>>) =>
    (await query.execute(db)).rows.map((r) => r.id);
  const hypervisors = await ids(
    sql`select id from hypervisors where location_id = ${location.id} order by name`,
  );
  const owners = [
    customer.id,
    ...(await ids(
      sql`select id from users where email like ${`${PREFIX}%`} and not is_admin order by email`,
    )),
  ];
  const had: ListSize = { instances: 0, migrations: 0, activity: 0 };
  let busyInstance = '';

  const growInstances = async (from: number, to: number) => {
    // Owner g % 100: the customer holds every hundredth; the newest rows are the highest g.
    await sql`
      insert into instances (user_id, location_id, hypervisor_id, name, hostname, status, cpu_cores, memory_mb,
                             disk_mb, virtualization, boot_order, created_at, updated_at)
      select (${owners}::uuid[])[1 + g % ${OWNERS}], ${location.id}, (${hypervisors}::uuid[])[1 + g % ${HYPERVISORS}],
             ${PREFIX} || g, ${PREFIX} || g || '.example.test',
             case when g % 10 = 3 then 'stopped' else 'running' end, 2, 2048, 40960, 'kvm', '["disk"]',
             timestamptz '2026-01-01' + g * interval '1 second', now()
        from generate_series(${from + 1}::int, ${to}::int) g`.execute(db);
    busyInstance ||= (
      await ids(sql`select id from instances where user_id = ${customer.id} and name like ${`${PREFIX}%`}
                     order by created_at limit 1`)
    )[0]!;
  };

  const growMigrations = async (from: number, to: number) => {
    const instances = await ids(
      sql`select id from instances where name like ${`${PREFIX}%`} order by created_at limit 1000`,
    );
    await sql`
      insert into migrations (id, instance_id, source_hypervisor_id, target_hypervisor_id, mode, strategy, state,
                              operation_id, workflow_id, requested_by, reason, network_plan, created_at, updated_at,
                              finished_at)
      select gen_random_uuid(), (${instances}::uuid[])[1 + g % ${instances.length}],
             (${hypervisors}::uuid[])[1 + g % ${HYPERVISORS}], (${hypervisors}::uuid[])[1 + (g + 1) % ${HYPERVISORS}],
             'AUTO', 'live', case when g % 10 = 0 then 'ROLLED_BACK' else 'CLEANED_UP' end, gen_random_uuid(),
             ${PREFIX} || g, 'admin:bench', 'rebalancing', '{"mode":"same_ip"}',
             timestamptz '2026-01-01' + g * interval '37 seconds', timestamptz '2026-01-01' + g * interval '37 seconds',
             timestamptz '2026-01-01' + g * interval '37 seconds' + interval '90 seconds'
        from generate_series(${from + 1}::int, ${to}::int) g`.execute(db);
    await sql`
      insert into migration_events (migration_id, state, detail, at)
      select m.id, s.state, '{}'::jsonb, m.created_at + s.n * interval '5 seconds'
        from migrations m
        cross join unnest(${sql.lit(`{${happyPath('live').join(',')}}`)}::text[]) with ordinality as s(state, n)
       where m.workflow_id like ${`${PREFIX}%`}
         and substring(m.workflow_id from ${PREFIX.length + 1})::int between ${from + 1}::int and ${to}::int`.execute(
      db,
    );
  };

  const growActivity = async (from: number, to: number) => {
    const instances = await ids(
      sql`select id from instances where name like ${`${PREFIX}%`} order by created_at limit 10000`,
    );
    await sql`
      insert into activity_log (user_id, instance_id, actor, event, detail, correlation_id, created_at)
      select i.user_id, i.id, 'client:bench', 'instance.power', '{"action":"restart"}', null,
             timestamptz '2026-01-01' + g * interval '3 seconds'
        from generate_series(${from + 1}::int, ${to}::int) g
        join instances i on i.id = case when g % 100 = 0 then ${busyInstance}::uuid
                                        else (${instances}::uuid[])[1 + g % ${instances.length}] end`.execute(
      db,
    );
  };

  return {
    adminKey,
    customerKey: customer.key,
    customerId: customer.id,
    get busyInstance() {
      return busyInstance;
    },
    hypervisor: hypervisors[1]!,
    async grow(size) {
      if (size.instances > had.instances) await growInstances(had.instances, size.instances);
      if (size.migrations > had.migrations) await growMigrations(had.migrations, size.migrations);
      if (size.activity > had.activity) await growActivity(had.activity, size.activity);
      Object.assign(had, size);
      await sql`vacuum analyze`.execute(db);
    },
  };
}

/**
 * The admin pages at the scale of a long-lived plane: 10,000 migrations with their state histories
 * (about 14 events each), some waiting in RECOVERY_REQUIRED, some stuck, some rolled back. An
 * administrator signs in through the login form, then the list (first page, filtered, deep) and
 * migrations' views are read one at a time from the compiled API; the server's own time of each
 * (its Server-Timing header) and the time this process saw are printed beside the target.
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { createCredential } from '../db/repositories/accounts/credentials.js';
import { insertUser } from '../db/repositories/accounts/users.js';
import { upsertLocation } from '../db/repositories/catalogue/catalog.js';
import { happyPath } from '../domain/migrations/states.js';
import { seedOnlineHypervisors } from './admin-reads.js';
import { quantiles } from './backups.js';

export const TARGET_P50_MS = 100;

export interface PagesScale {
  readonly migrations: number;
  readonly hypervisors: number;
  readonly instances: number;
}

/** `scale.migrations` migrations between the hypervisors of a location of their own, with an admin's key. */
export async function seedMigrationHistory(db: Database, ownerId: string, scale: PagesScale) {
  const location = await upsertLocation(db, { code: 'bench-pages', name: 'Bench pages' });
  await seedOnlineHypervisors(db, location.id, scale.hypervisors, 'bench-pages-');
  await sql`
    with hv as (select array_agg(id order by name) as ids from hypervisors where location_id = ${location.id})
    insert into instances (user_id, location_id, hypervisor_id, name, hostname, status, cpu_cores, memory_mb,
                           disk_mb, virtualization, boot_order, created_at, updated_at)
    select ${ownerId}, ${location.id}, hv.ids[1 + g % ${scale.hypervisors}], 'moved-' || g,
           'moved-' || g || '.example.test', 'running', 2, 2048, 40960, 'kvm', '["disk"]', now(), now()
      from hv, generate_series(1, ${scale.instances}) g`.execute(db);
  // One in a hundred waits in RECOVERY_REQUIRED, one is stuck in TRANSFERRING, three rolled back;
  // the rest completed long ago. One every 37 s, the newest first.
  await sql`
    with hv as (select array_agg(id order by name) as ids from hypervisors where location_id = ${location.id}),
         inst as (select array_agg(id order by name) as ids from instances where location_id = ${location.id})
    insert into migrations (id, instance_id, source_hypervisor_id, target_hypervisor_id, mode, strategy, state,
                            operation_id, workflow_id, requested_by, reason, network_plan, failed_step, failure,
                            created_at, updated_at, finished_at)
    select gen_random_uuid(), inst.ids[1 + g % ${scale.instances}], hv.ids[1 + g % ${scale.hypervisors}],
           hv.ids[1 + (g + 1) % ${scale.hypervisors}], 'AUTO', 'live',
           case g % 100 when 0 then 'RECOVERY_REQUIRED' when 1 then 'TRANSFERRING'
                        when 2 then 'ROLLED_BACK' when 3 then 'ROLLED_BACK' when 4 then 'ROLLED_BACK'
                        else 'CLEANED_UP' end,
           gen_random_uuid(), 'bench-pages-' || g, 'admin:bench', 'rebalancing', '{"mode":"same_ip"}',
           case when g % 100 = 0 then 'STARTING_TARGET' when g % 100 between 2 and 4 then 'TRANSFERRING' end,
           case when g % 100 = 0 then '{"code":"SIMULATED_FAILURE","message":"the target did not start"}'::jsonb
                when g % 100 between 2 and 4 then '{"code":"CANCELLED","message":"wrong target"}'::jsonb end,
           now() - g * interval '37 seconds', now() - g * interval '37 seconds' + interval '90 seconds',
           case when g % 100 > 1 then now() - g * interval '37 seconds' + interval '90 seconds' end
      from hv, inst, generate_series(1, ${scale.migrations}) g`.execute(db);
  // The happy path up to the state each reached, a step's detail on the transfer.
  await sql`
    insert into migration_events (migration_id, state, detail, at)
    select m.id, s.state,
           case when s.state = 'TRANSFERRING' then '{"size_mb":40960}'::jsonb else '{}'::jsonb end,
           m.created_at + s.n * interval '5 seconds'
      from migrations m
      cross join unnest(${sql.lit(`{${happyPath('live').join(',')}}`)}::text[]) with ordinality as s(state, n)
     where m.workflow_id like 'bench-pages-%'
       and (m.state = 'CLEANED_UP'
            or (m.state = 'RECOVERY_REQUIRED' and s.n <= 10)
            or (m.state in ('TRANSFERRING', 'ROLLED_BACK') and s.n <= 4))
     order by m.created_at, s.n`.execute(db);
  await sql`
    insert into migration_events (migration_id, state, detail, at)
    select id, state, '{}'::jsonb, updated_at from migrations
     where workflow_id like 'bench-pages-%' and state in ('RECOVERY_REQUIRED', 'ROLLED_BACK')`.execute(db);
  await sql`analyze`.execute(db);
  const admin = await insertUser(db, {
    email: 'bench-pages@example.test',
    name: 'Bench admin',
    isAdmin: true,
  });
  const key = (await createCredential(db, { type: 'application', userId: admin.id })).token;
  const pick = async (state: string) =>
    (
      await sql<{
        id: string;
      }>`select id from migrations where workflow_id like 'bench-pages-%' and state = ${state}
                                 order by created_at desc limit 1`.execute(db)
    ).rows[0]!.id;
  const hypervisor = (
    await sql<{
      id: string;
    }>`select id from hypervisors where location_id = ${location.id} order by name limit 1`.execute(db)
  ).rows[0]!.id;
  return {
    key,
    hypervisor,
    waiting: await pick('RECOVERY_REQUIRED'),
    completed: await pick('CLEANED_UP'),
  };
}

const cookieOf = (reply: Response, name: string) =>
  reply.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`));

/** Signs in through the login form as a browser does; the session's cookie. */
export async function signIn(apiUrl: string, key: string): Promise<string> {
  const form = await fetch(`${apiUrl}/admin/cloudsvc/login`, { headers: { Accept: 'text/html' } });
  const nonce = cookieOf(form, 'cloudsvc_admin_login');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!nonce || !csrf) throw new Error('the login form gave no form token');
  const reply = await fetch(`${apiUrl}/admin/cloudsvc/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      Accept: 'text/html',
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(apiUrl).origin,
      Cookie: nonce,
    },
    body: new URLSearchParams({ key, csrf, next: '' }).toString(),
  });
  const session = cookieOf(reply, 'cloudsvc_admin_session');
  if (reply.status !== 303 || !session) throw new Error(`the login answered ${reply.status}`);
  return session;
}

/**
 * `count` reads of a page after `warmUp` unmeasured ones, each 200: the server's time (the page's
 * Server-Timing) and the time seen here.
 */
export async function timePage(url: string, cookie: string, warmUp: number, count: number) {
  const server: number[] = [];
  const seen: number[] = [];
  for (let i = 0; i < warmUp + count; i++) {
    const started = performance.now();
    const reply = await fetch(url, { headers: { Accept: 'text/html', Cookie: cookie } });
    await reply.arrayBuffer();
    const elapsed = performance.now() - started;
    if (reply.status !== 200) throw new Error(`${url}: answered ${reply.status}`);
    const dur = /total;dur=([\d.]+)/.exec(reply.headers.get('server-timing') ?? '')?.[1];
    if (dur === undefined) throw new Error(`${url}: no Server-Timing`);
    if (i >= warmUp) {
      server.push(Number(dur));
      seen.push(elapsed);
    }
  }
  return { server: quantiles(server), seen: quantiles(seen) };
}

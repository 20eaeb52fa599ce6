/**
 * The administrator's heaviest reads at the scale of a large plane: the overview and a scheduler
 * dry-run, with 500 online hypervisors in one location and 10,000 instances on them, each holding
 * its reservation as an order leaves it. Requests go one at a time from this process to the
 * compiled API, after a warm-up; p50 and p99 of each are printed beside the target.
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { createCredential } from '../db/repositories/accounts/credentials.js';
import { insertUser } from '../db/repositories/accounts/users.js';
import { upsertLocation, upsertPlan } from '../db/repositories/catalogue/catalog.js';
import { quantiles } from './backups.js';

export const TARGET = { p50: 50, p99: 150 };

export interface AdminScale {
  readonly hypervisors: number;
  readonly instances: number;
}

/** `count` large online hypervisors in the location, named `prefix` and a number. */
export async function seedOnlineHypervisors(db: Database, locationId: string, count: number, prefix: string) {
  await sql`
    insert into hypervisors (name, location_id, status, capabilities, storage_backends, cpu_cores, memory_mb,
                             disk_mb, last_seen_at, created_at, updated_at)
    select ${prefix} || g, ${locationId}, 'online', '["live_migration"]', '["local"]', 128, 524288,
           8000000, now(), now(), now()
      from generate_series(1, ${count}) g`.execute(db);
}

/** A location of `scale.hypervisors` online hypervisors holding `scale.instances` instances, and an admin key. */
export async function seedLargePlane(db: Database, ownerId: string, scale: AdminScale) {
  const location = await upsertLocation(db, { code: 'bench-large', name: 'Bench large' });
  const plan = await upsertPlan(db, {
    code: 'bench-admin',
    name: 'Bench admin',
    cpu_cores: 2,
    memory_mb: 2048,
    disk_mb: 40960,
  });
  await seedOnlineHypervisors(db, location.id, scale.hypervisors, 'bench-large-');
  // Instances spread over the hypervisors, nine in ten running; each with its order's reservation.
  await sql`
    with hv as (select array_agg(id order by name) as ids from hypervisors where location_id = ${location.id}),
         made as (
      insert into instances (user_id, location_id, hypervisor_id, plan_id, name, hostname, status, cpu_cores,
                             memory_mb, disk_mb, virtualization, boot_order, created_at, updated_at)
      select ${ownerId}, ${location.id}, hv.ids[1 + g % ${scale.hypervisors}], ${plan.id}, 'large-' || g,
             'large-' || g || '.example.test', case when g % 10 = 0 then 'stopped' else 'running' end,
             2, 2048, 40960, 'kvm', '["disk"]', now() - g * interval '1 second', now()
        from hv, generate_series(1, ${scale.instances}) g
      returning id, hypervisor_id)
    insert into reservations (hypervisor_id, instance_id, purpose, cpu_cores, memory_mb, disk_mb, created_at)
    select hypervisor_id, id, 'instance', 2, 2048, 40960, now() from made`.execute(db);
  await sql`analyze`.execute(db);
  const admin = await insertUser(db, {
    email: 'bench-admin@example.test',
    name: 'Bench admin',
    isAdmin: true,
  });
  const key = (await createCredential(db, { type: 'application', userId: admin.id })).token;
  return { location, plan, key };
}

export interface ReadTarget {
  readonly label: string;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body?: unknown;
}

/** Times `count` requests of the target after `warmUp` unmeasured ones; each must answer 200. */
export async function timeReads(target: ReadTarget, key: string, warmUp: number, count: number) {
  const times: number[] = [];
  for (let i = 0; i < warmUp + count; i++) {
    const started = performance.now();
    const reply = await fetch(target.url, {
      method: target.method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: target.body === undefined ? undefined : JSON.stringify(target.body),
    });
    await reply.arrayBuffer();
    if (reply.status !== 200) throw new Error(`${target.label}: answered ${reply.status}`);
    if (i >= warmUp) times.push(performance.now() - started);
  }
  return quantiles(times);
}

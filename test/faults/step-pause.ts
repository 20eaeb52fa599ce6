import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { eventually } from '../support/eventually.js';

/**
 * Holds a migration at a step boundary so that a fault lands exactly there: a trigger of the
 * test's own, on the shape's database, makes the worker's write of the aimed state sleep inside
 * its transaction. The test then kills the worker that holds the connection, takes the aim away
 * and ends the sleeping backend (as PostgreSQL would on finding its client gone): the write is
 * rolled back, and the run goes on from the previous state on whichever worker picks it up.
 */
export async function installStepPause(db: Database): Promise<void> {
  await sql`create table if not exists fault_step_pauses (instance_id uuid primary key, state text not null)`.execute(
    db,
  );
  await sql`
    create or replace function fault_step_pause() returns trigger language plpgsql as $$
    begin
      if new.state is distinct from old.state
         and exists (select 1 from fault_step_pauses where instance_id = new.instance_id and state = new.state) then
        perform pg_sleep(120);
      end if;
      return new;
    end $$`.execute(db);
  await sql`drop trigger if exists fault_step_pause on migrations`.execute(db);
  await sql`create trigger fault_step_pause before update on migrations for each row execute function fault_step_pause()`.execute(
    db,
  );
}

/** The next write of `state` to a migration of the instance will sleep. */
export async function pauseAt(db: Database, instanceId: string, state: MigrationState): Promise<void> {
  await sql`insert into fault_step_pauses (instance_id, state) values (${instanceId}, ${state})`.execute(db);
}

/** The pid of the process whose write of the aimed state sleeps, once it does, and the backend serving it. */
export async function pausedWriter(db: Database): Promise<{ pid: number; backend: number }> {
  return eventually(
    async () => {
      const { rows } = await sql<{ pid: number; client_port: number }>`
        select pid, client_port from pg_stat_activity where wait_event = 'PgSleep' and datname = current_database()`.execute(
        db,
      );
      const sleeping = rows[0];
      if (!sleeping) return undefined;
      // The client's end of the connection: the socket whose source port is the backend's client port.
      const socket = execFileSync('ss', ['-tnpH', `sport = :${sleeping.client_port}`], { encoding: 'utf8' });
      const pid = Number(/pid=(\d+)/.exec(socket)?.[1]);
      return pid ? { pid, backend: sleeping.pid } : undefined;
    },
    120_000,
    'a worker to write the aimed state',
  );
}

/** Takes the aim away, then ends the backend whose client is gone: its write is rolled back. */
export async function releasePause(db: Database, instanceId: string, backend: number): Promise<void> {
  await sql`delete from fault_step_pauses where instance_id = ${instanceId}`.execute(db);
  await sql`select pg_terminate_backend(${backend})`.execute(db);
}

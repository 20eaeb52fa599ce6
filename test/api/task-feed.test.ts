import { randomUUID } from 'node:crypto';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { findOverlookedTasks } from '../../db/repositories/hypervisors/agent-task-leases.js';
import { queueAgentTask } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { createScratchDatabase, type ScratchDatabase } from '../../db/scratch-database.js';
import { TASK_CHANNEL, TaskFeed } from '../../db/task-channel.js';
import { createLogger } from '../../platform/logger.js';
import { freePort } from '../../platform/ports.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';

const logger = createLogger('silent');

describe('the task feed', () => {
  it('wakes a long-polling agent when its hypervisor gets a task (PostgreSQL NOTIFY)', async () => {
    const url = inject('databaseUrl');
    const feed = new TaskFeed(url, logger);
    await feed.start();
    try {
      expect(feed.listening).toBe(true);
      const hypervisorId = randomUUID();
      let woke = false;
      const waiting = feed.wait(hypervisorId, 30_000).then(() => {
        woke = true;
      });
      const other = feed.wait(randomUUID(), 30_000);
      const sender = new pg.Client({ connectionString: url });
      await sender.connect();
      await sender.query('select pg_notify($1, $2)', [TASK_CHANNEL, hypervisorId]);
      await sender.end();
      // Far below the 30 s wait: only the notification can have ended it.
      await Promise.race([waiting, new Promise((r) => setTimeout(r, 10_000))]);
      expect(woke).toBe(true);
      await feed.close();
      await other;
    } finally {
      await feed.close();
    }
  });

  it('wakes one waiting poll per announced task, and a poll that cannot use its wake passes it on', async () => {
    const url = inject('databaseUrl');
    const feed = new TaskFeed(url, logger);
    await feed.start();
    try {
      const hypervisorId = randomUUID();
      const woken: string[] = [];
      const first = feed.wait(hypervisorId, 30_000).then((w) => w && woken.push('first'));
      const second = feed.wait(hypervisorId, 30_000).then((w) => w && woken.push('second'));
      await notify(url, hypervisorId);
      await eventually(() => woken.length > 0, 10_000, 'a poll woken by the task');
      // One task, one wake: the other poll sleeps on rather than racing for a lease it would lose.
      await new Promise((r) => setTimeout(r, 200));
      expect(woken).toEqual(['first']);
      feed.pass(hypervisorId);
      await Promise.all([first, second]);
      expect(woken).toEqual(['first', 'second']);
    } finally {
      await feed.close();
    }
  });

  it('does not let a poll sleep through a task announced while it was leasing', async () => {
    const url = inject('databaseUrl');
    const feed = new TaskFeed(url, logger);
    await feed.start();
    try {
      const hypervisorId = randomUUID();
      const before = feed.announcements(hypervisorId);
      await notify(url, hypervisorId);
      await eventually(() => feed.announcements(hypervisorId) > before, 10_000, 'the announcement heard');
      const started = performance.now();
      expect(await feed.wait(hypervisorId, 30_000, undefined, before)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await feed.close();
    }
  });
});

describe('the task feed’s sweep', () => {
  it('wakes a waiting poll for each task no announcement brought, in one lookup for all the waiting polls', async () => {
    const url = inject('databaseUrl');
    const { db, close } = createDatabase({ url, poolSize: 2, namedStatements: false });
    const lookups: number[] = [];
    const feed = new TaskFeed(url, logger, {
      overlooked: (hypervisorIds, queuedForMs) => {
        lookups.push(hypervisorIds.length);
        return findOverlookedTasks(db, hypervisorIds, queuedForMs);
      },
    });
    try {
      const [busy, quiet] = [await seed.hypervisor(db), await seed.hypervisor(db)];
      const task = (hypervisorId: string) =>
        queueAgentTask(db, {
          hypervisorId,
          type: 'hypervisor.probe',
          params: {},
          taskToken: new Uint8Array([1]),
          workflowId: `sweep-${randomUUID()}`,
          runId: randomUUID(),
          activityId: '1',
          attempt: 1,
          correlationId: null,
        });
      // Two tasks whose announcements went unheard (no feed was listening): one queued a while
      // ago, one leased by an agent that died (its lease lapsed); none for the quiet hypervisor.
      const [queued, lapsed] = [await task(busy.id), await task(busy.id)];
      await sql`update agent_tasks set created_at = now() - interval '10 seconds' where id = ${queued}`.execute(
        db,
      );
      await sql`update agent_tasks set status = 'leased', lease_expires_at = now() - interval '1 second'
                 where id = ${lapsed}`.execute(db);
      await feed.start();
      expect(feed.listening).toBe(true);

      // A woken poll takes a task at once, as tasks/next would.
      const take = () =>
        sql`update agent_tasks set status = 'completed', finished_at = now()
             where id = (select id from agent_tasks where hypervisor_id = ${busy.id} and status in ('queued', 'leased')
                          order by created_at limit 1 for update skip locked)`.execute(db);
      const woken: string[] = [];
      const waitOn = (hypervisorId: string, name: string) =>
        feed.wait(hypervisorId, 30_000).then(async (announced) => {
          woken.push(`${name}:${announced}`);
          if (name === 'busy') await take();
        });
      for (let i = 0; i < 3; i++) void waitOn(busy.id, 'busy');
      for (let i = 0; i < 5; i++) void waitOn(quiet.id, 'quiet');
      await eventually(() => woken.length >= 2, 10_000, 'two polls woken');
      // Two sweeps more: still two, the third poll and the quiet hypervisor's keep waiting.
      await new Promise((r) => setTimeout(r, 2.5 * feed.sweepMs));
      expect(woken).toEqual(['busy:false', 'busy:false']);
      // Each sweep looked once, for both hypervisors, however many polls waited on them.
      expect(lookups.length).toBeGreaterThan(0);
      expect(lookups.every((n) => n <= 2)).toBe(true);
      expect(lookups.length).toBeLessThan(10);
    } finally {
      await feed.close();
      await close();
    }
  });
});

/** A logger whose records the test reads. */
function recordingLogger() {
  const records: { msg: string; retry_in_ms?: number }[] = [];
  return { records, logger: createLogger('info', {}, (line) => records.push(JSON.parse(line))) };
}

async function notify(url: string, hypervisorId: string): Promise<void> {
  const sender = new pg.Client({ connectionString: url });
  await sender.connect();
  try {
    await sender.query('select pg_notify($1, $2)', [TASK_CHANNEL, hypervisorId]);
  } finally {
    await sender.end();
  }
}

/** The feed hears a notification sent from another connection (far sooner than the 30 s wait). */
async function hears(feed: TaskFeed, notifyUrl: string): Promise<boolean> {
  const hypervisorId = randomUUID();
  let woke = false;
  const waiting = feed.wait(hypervisorId, 30_000).then(() => {
    woke = true;
  });
  await notify(notifyUrl, hypervisorId);
  await Promise.race([waiting, new Promise((r) => setTimeout(r, 5_000))]);
  return woke;
}

describe('the task feed after its connection fails', () => {
  // A database of its own, so that ending the feed's backends touches no other test's feed.
  let scratch: ScratchDatabase;
  let database: string;
  beforeAll(async () => {
    scratch = await createScratchDatabase(inject('databaseUrl'), 'cloudsvc_feed');
    database = new URL(scratch.url).pathname.slice(1);
  });
  afterAll(() => scratch.drop());

  async function terminateFeedBackends(): Promise<number> {
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    try {
      const result = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'cloudsvc-task-feed' and datname = $1`,
        [database],
      );
      return result.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('listens again after its backend is terminated, twice', async () => {
    const { records, logger } = recordingLogger();
    const feed = new TaskFeed(scratch.url, logger, { backoff: { startMs: 100, maxMs: 1_000 } });
    try {
      await feed.start();
      expect(feed.listening).toBe(true);
      for (let round = 1; round <= 2; round++) {
        expect(await terminateFeedBackends()).toBeGreaterThanOrEqual(1);
        await eventually(
          () => records.filter((r) => r.msg.startsWith('task feed connection lost')).length >= round,
          10_000,
          `the loss of round ${round}`,
        );
        await eventually(() => feed.listening, 10_000, `listening again after round ${round}`);
        expect(await hears(feed, scratch.url)).toBe(true);
      }
    } finally {
      await feed.close();
    }
  });

  it('keeps retrying, with capped exponential backoff, while reconnecting fails', async () => {
    // A TCP relay to PostgreSQL that the test closes (refusing connections) and opens again.
    const upstream = new URL(scratch.url);
    const port = await freePort();
    const sockets = new Set<Socket>();
    const relay = createServer((client) => {
      const server = tcpConnect(Number(upstream.port || 5432), upstream.hostname);
      for (const [a, b] of [
        [client, server],
        [server, client],
      ] as const) {
        sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    const open = () => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
    const shut = () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    const relayed = new URL(scratch.url);
    relayed.host = `127.0.0.1:${port}`;

    const { records, logger } = recordingLogger();
    const feed = new TaskFeed(relayed.toString(), logger, { backoff: { startMs: 100, maxMs: 400 } });
    await open();
    try {
      await feed.start();
      expect(feed.listening).toBe(true);

      await shut();
      const failures = () => records.filter((r) => r.msg.startsWith('task feed cannot LISTEN'));
      await eventually(() => failures().length >= 3, 10_000, 'three failed reconnects');
      expect(feed.listening).toBe(false);
      const delays = records.filter((r) => r.retry_in_ms !== undefined).map((r) => r.retry_in_ms);
      expect(delays.slice(0, 4)).toEqual([100, 200, 400, 400]);

      await open();
      await eventually(() => feed.listening, 10_000, 'listening once the database is reachable');
      expect(await hears(feed, scratch.url)).toBe(true);
    } finally {
      await feed.close();
      await shut();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { TaskFeed } from '../../api/agent/task-feed.js';
import { startEmbeddedDatabase } from '../../db/embedded.js';
import { createLogger } from '../../platform/logger.js';
import { freePort } from '../../platform/ports.js';

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
      await sender.query('select pg_notify($1, $2)', ['agent_tasks', hypervisorId]);
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

  it('falls back to polling where notifications do not cross connections (embedded PGlite)', async () => {
    const db = await startEmbeddedDatabase(mkdtempSync(join(tmpdir(), 'feed-pglite-')), await freePort());
    const feed = new TaskFeed(db.url, logger);
    try {
      await feed.start();
      expect(feed.listening).toBe(false);
      expect(feed.recheckMs).toBeLessThanOrEqual(100);
    } finally {
      await feed.close();
      await db.stop();
    }
  });
});

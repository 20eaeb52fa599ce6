import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../db/embedded.js';
import { migrateToLatest } from '../../db/migrator.js';
import { createScratchDatabase } from '../../db/scratch-database.js';
import { createRegistry } from '../../platform/metrics.js';
import { freePort } from '../../platform/ports.js';
import { connectTemporal } from '../../platform/temporal.js';
import { buildApp } from '../../server/app.js';
import { startWorkerHttpServer } from '../../worker/http-server.js';
import { json } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({ worker: true, config: { READINESS_TIMEOUT_MS: '1000' } });
});
afterAll(() => env.close());

/** The API's probes on the stack's app, with some of its dependencies swapped. */
const probe = (path: string, deps: Partial<typeof env.deps> = {}) =>
  buildApp({ ...env.deps, ...deps }).request(path);

describe('GET /healthz and /readyz (API)', () => {
  it('answers 200 to both when the database, its migrations and Temporal answer', async () => {
    const live = await probe('/healthz');
    expect([live.status, await json(live)]).toEqual([200, { status: 'ok' }]);
    const ready = await probe('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    const body = await json(ready);
    expect(body.status).toBe('ready');
    for (const check of ['database', 'migrations', 'temporal'])
      expect(body.checks[check]).toMatchObject({ ok: true });
  });

  it('answers probes that come within a second with one check, and checks again after', async () => {
    const app = buildApp(env.deps);
    const [a, b] = await Promise.all([app.request('/readyz'), app.request('/readyz')]);
    const [first, second] = [await json(a), await json(b)];
    expect(second.checks).toEqual(first.checks);
    await new Promise((r) => setTimeout(r, 1_100));
    const later = await json(await app.request('/readyz'));
    expect(later.status).toBe('ready');
    expect(
      later.checks.database.ms === first.checks.database.ms &&
        later.checks.temporal.ms === first.checks.temporal.ms,
    ).toBe(false);
  });

  it('answers /readyz 503 while Temporal does not answer, naming it, and says no more', async () => {
    const port = await freePort();
    // Never closed: closing a connection still trying to connect rejects a promise nobody holds.
    const cut = await connectTemporal({
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      TEMPORAL_NAMESPACE: 'default',
    });
    const ready = await probe('/readyz', { temporal: cut.client });
    expect(ready.status).toBe(503);
    const body = await json(ready);
    expect(body.status).toBe('unready');
    expect(body.checks.temporal).toMatchObject({ ok: false });
    expect(['not reachable', 'timed out']).toContain(body.checks.temporal.detail);
    expect(body.checks.database).toMatchObject({ ok: true });
    expect(JSON.stringify(body)).not.toContain(String(port));
    expect((await probe('/healthz', { temporal: cut.client })).status).toBe(200);
  });

  it('answers /readyz 503 on a database without the migrations of this build', async () => {
    const scratch = await createScratchDatabase(inject('databaseServerUrl'), 'cloudsvc_unmigrated');
    const handle = createDatabase({ url: scratch.url, poolSize: 1, namedStatements: false });
    try {
      const body = await json(await probe('/readyz', { db: handle.db }));
      expect(body.checks.database).toMatchObject({ ok: true });
      expect(body.checks.migrations).toMatchObject({ ok: false });
      expect(body.checks.migrations.detail).toMatch(/^\d+ migration\(s\) not applied$/);
    } finally {
      await handle.close();
      await scratch.drop();
    }
  });
});

describe('readiness when PostgreSQL stops', () => {
  const dir = mkdtempSync(join(tmpdir(), 'readyz-db-'));
  chmodSync(dir, 0o755);
  let embedded: EmbeddedDatabase | undefined;
  let port: number;
  afterAll(async () => {
    await embedded?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns unready when the server stops, and ready again when it is back', async () => {
    port = await freePort();
    embedded = await startEmbeddedDatabase({ dir, port });
    const handle = createDatabase({ url: embedded.url, poolSize: 2, namedStatements: true });
    try {
      await migrateToLatest(handle.db);
      const status = async () => {
        const reply = await probe('/readyz', { db: handle.db });
        return { status: reply.status, body: await json(reply) };
      };
      expect((await status()).status).toBe(200);

      await embedded.stop();
      embedded = undefined;
      const down = await status();
      expect(down.status).toBe(503);
      expect(down.body.checks.database).toMatchObject({ ok: false });
      expect(down.body.checks.temporal).toMatchObject({ ok: true });

      embedded = await startEmbeddedDatabase({ dir, port });
      expect((await status()).status).toBe(200);
    } finally {
      await handle.close();
    }
  });
});

describe('the worker’s probes', () => {
  it('answer ready while the worker runs, and unready once it stopped', async () => {
    const server = await startWorkerHttpServer(
      {
        db: env.db,
        temporal: env.temporal,
        config: { ...env.config, WORKER_HTTP_PORT: 0 },
        logger: env.deps.logger,
      },
      env.temporalWorker!,
      createRegistry(),
    );
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect((await json(ready)).checks.worker).toMatchObject({ ok: true });
      await env.stopWorker();
      const stopped = await fetch(`${server.url}/readyz`);
      expect(stopped.status).toBe(503);
      expect((await json(stopped)).checks.worker).toMatchObject({
        ok: false,
        detail: 'the worker is stopped',
      });
    } finally {
      await server.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { SimulatedDriver } from '../../agent/drivers/simulated/driver.js';
import { PanelClient, PanelRefused } from '../../agent/panel-client.js';
import { runTask } from '../../agent/task-runner.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { createLogger } from '../../platform/logger.js';
import { type ApiServer, startApiServer } from '../../server/start.js';
import { testConfig } from '../support/config.js';
import { seed } from '../support/seed.js';

/**
 * An agent never loops on a report the panel can never take: a 4xx answer ends the retries of
 * that report at once, with a log line, and the task's other reports still go out.
 */
let server: ApiServer;
const serverLog: { msg: string; path?: string; status?: number }[] = [];
let credential: string;
const stateDir = mkdtempSync(join(tmpdir(), 'refused-reports-'));

beforeAll(async () => {
  server = await startApiServer(
    testConfig(),
    createLogger('info', {}, (line) => serverLog.push(JSON.parse(line))),
  );
  const hypervisor = await seed.hypervisor(server.deps.db);
  credential = (await createCredential(server.deps.db, { type: 'agent', hypervisorId: hypervisor.id })).token;
});
afterAll(async () => {
  await server.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function agentSide() {
  const lines: { msg: string; kind?: string; error?: { message: string } }[] = [];
  const logger = createLogger('info', {}, (line) => lines.push(JSON.parse(line)));
  const panel = new PanelClient(server.url, logger, new AbortController().signal);
  panel.credential = credential;
  return { lines, logger, panel };
}

/** How many requests to `path` the panel refused. */
const refusedAt = (path: string) => serverLog.filter((r) => r.msg === 'request refused' && r.path === path);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a report the panel refuses with a 4xx', () => {
  it('is sent once: a failure message it cannot store (400)', async () => {
    const { panel } = agentSide();
    const task = randomUUID();
    const path = `/api/cloudsvc/agent/tasks/${task}/failed`;
    const sent = panel.api.POST('/tasks/{task}/failed', {
      params: { path: { task } },
      body: { sequence: 1, error: { code: 'DISK_FULL', message: 'no space\u0000left', retryable: false } },
    });
    await expect(sent).rejects.toBeInstanceOf(PanelRefused);
    await expect(sent).rejects.toMatchObject({ status: 400 });
    // Longer than the first retry delay (250 ms): no second attempt came.
    await sleep(600);
    expect(refusedAt(path)).toHaveLength(1);
  });

  it('is sent once: a body over the limit (413)', async () => {
    const { panel } = agentSide();
    const task = randomUUID();
    const path = `/api/cloudsvc/agent/tasks/${task}/progress`;
    const sent = panel.api.POST('/tasks/{task}/progress', {
      params: { path: { task } },
      body: { sequence: 1, message: 'x'.repeat(server.deps.config.BODY_LIMIT_BYTES) },
    });
    await expect(sent).rejects.toMatchObject({ status: 413 });
    await sleep(600);
    expect(refusedAt(path)).toHaveLength(1);
  });

  it('ends in a log line while the task runs on and sends its other reports', async () => {
    const { lines, logger, panel } = agentSide();
    const driver = new SimulatedDriver(
      loadAgentConfig({
        AGENT_PANEL_URL: server.url,
        AGENT_STATE_DIR: stateDir,
        AGENT_SIM_LATENCY_MS: '{"default":0}',
      }),
    );
    // A task this panel never queued: every report about it is refused (404).
    const taskId = randomUUID();
    const fatal: Error[] = [];
    await runTask(
      {
        task_id: taskId,
        type: 'hypervisor.probe',
        params: {},
        step: 'probe',
        attempt: 1,
        next_sequence: 1,
        correlation_id: null,
        trace_parent: null,
        lease_expires_at: new Date(Date.now() + 60_000).toISOString(),
        created_at: new Date().toISOString(),
      },
      driver,
      panel,
      { heartbeat_interval_ms: 60_000, progress_interval_ms: 60_000, poll_wait_ms: 1_000 },
      logger,
      new AbortController().signal,
      (error) => fatal.push(error),
    );
    await sleep(600);
    for (const kind of ['started', 'completed']) {
      expect(refusedAt(`/api/cloudsvc/agent/tasks/${taskId}/${kind}`), kind).toHaveLength(1);
    }
    const refusals = lines.filter((l) => l.msg === 'report refused by the panel');
    // The two are in flight together: the final report does not wait for the answer to `started`.
    expect(refusals.map((l) => l.kind).sort()).toEqual(['completed', 'started']);
    expect(refusals.every((l) => l.error?.message.includes('404'))).toBe(true);
    expect(lines.some((l) => l.msg.includes('retrying'))).toBe(false);
    expect(fatal).toEqual([]);
  });
});

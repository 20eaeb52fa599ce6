import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { revokeCredential } from '../../db/repositories/accounts/keys.js';
import { queueAgentTask } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { findTask } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
let cached: Stack;
const CACHE_TTL_MS = 1_500;
// Long enough that an answer well before it was woken by the task, even on a loaded machine.
const POLL_WAIT_MS = 90_000;

beforeAll(async () => {
  [t, cached] = await Promise.all([
    startStack({ config: { AGENT_POLL_MAX_WAIT_MS: String(POLL_WAIT_MS) } }),
    startStack({ config: { AUTH_CACHE_TTL_MS: String(CACHE_TTL_MS) } }),
  ]);
});
afterAll(() => Promise.all([t.close(), cached.close()]));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const setAdmin = (app: Stack, userId: string, isAdmin: boolean) =>
  app.db.updateTable('users').set({ is_admin: isAdmin }).where('id', '=', userId).execute();

async function queueProbe(hypervisorId: string): Promise<string> {
  const taskId = await queueAgentTask(t.db, {
    hypervisorId,
    type: 'hypervisor.probe',
    params: {},
    taskToken: new Uint8Array([1, 2, 3]),
    workflowId: `revocation-${randomUUID()}`,
    runId: randomUUID(),
    activityId: '1',
    attempt: 1,
    correlationId: null,
  });
  return taskId;
}

describe('a tasks/next long poll already waiting', () => {
  it('hands no task to a credential revoked while it waited; the task stays for the next agent', async () => {
    const admin = await seed.user(t.db, { admin: true });
    const appKey = await seed.key(t.db, admin.id, 'application');
    const hypervisor = await seed.hypervisor(t.db);
    const agent = (await createCredential(t.db, { type: 'agent', hypervisorId: hypervisor.id })).token;

    const started = performance.now();
    const polling = t.app.request(`/api/cloudsvc/agent/tasks/next?wait_ms=${POLL_WAIT_MS}`, {
      headers: bearer(agent),
    });
    await sleep(300);
    const revoked = await t.app.request(
      `/api/application/cloudsvc/hypervisors/${hypervisor.id}/revoke-agent`,
      { method: 'POST', headers: bearer(appKey) },
    );
    expect(revoked.status).toBe(200);
    const taskId = await queueProbe(hypervisor.id);

    const answer = await polling;
    expect(answer.status).toBe(401);
    expect((await json(answer)).errors[0].code).toBe('SVC-AUTH-401');
    // Woken by the task, not by the end of the wait.
    expect(performance.now() - started).toBeLessThan(POLL_WAIT_MS / 2);
    const task = await findTask(t.db, taskId);
    expect(task?.status).toBe('queued');

    const successor = (await createCredential(t.db, { type: 'agent', hypervisorId: hypervisor.id })).token;
    const next = await t.app.request('/api/cloudsvc/agent/tasks/next?wait_ms=0', {
      headers: bearer(successor),
    });
    expect(next.status).toBe(200);
    expect((await json(next)).attributes.task_id).toBe(taskId);
  });

  it('still hands a task to a live credential', async () => {
    const hypervisor = await seed.hypervisor(t.db);
    const agent = (await createCredential(t.db, { type: 'agent', hypervisorId: hypervisor.id })).token;
    const polling = t.app.request(`/api/cloudsvc/agent/tasks/next?wait_ms=${POLL_WAIT_MS}`, {
      headers: bearer(agent),
    });
    await sleep(300);
    const taskId = await queueProbe(hypervisor.id);
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect((await json(answer)).attributes.task_id).toBe(taskId);
  });
});

describe('application keys of a demoted administrator', () => {
  it('stop working when the user stops being an administrator, and work again if restored', async () => {
    const admin = await seed.user(t.db, { admin: true });
    const appKey = await seed.key(t.db, admin.id, 'application');
    const list = () => t.app.request('/api/application/cloudsvc/hypervisors', { headers: bearer(appKey) });
    expect((await list()).status).toBe(200);

    await setAdmin(t, admin.id, false);
    const refused = await list();
    expect(refused.status).toBe(401);
    expect((await json(refused)).errors[0].code).toBe('SVC-AUTH-401');

    await setAdmin(t, admin.id, true);
    expect((await list()).status).toBe(200);
  });

  it('leave the user’s client keys alone', async () => {
    const user = await seed.user(t.db, { admin: true });
    const clientKey = await seed.key(t.db, user.id, 'client');
    await setAdmin(t, user.id, false);
    expect((await t.app.request('/api/client/cloud', { headers: bearer(clientKey) })).status).toBe(200);
  });
});

describe(`with the key cache on (AUTH_CACHE_TTL_MS=${CACHE_TTL_MS})`, () => {
  /** Asks until refused; returns how long after `since` the first refusal came. */
  /**
   * How long after `since` a request was still served: the send time of the last accepted one. A
   * slow answer (a loaded machine) does not count against the bound; serving a request sent later does.
   */
  async function refusedAfter(send: () => Response | Promise<Response>, since: number): Promise<number> {
    let lastServed = 0;
    for (;;) {
      const sentAt = performance.now();
      const res = await send();
      if (res.status === 401) return lastServed;
      expect(res.status).toBe(200);
      lastServed = sentAt - since;
      await sleep(50);
    }
  }

  it('serves a revoked client key no longer than the TTL', async () => {
    const user = await seed.user(cached.db);
    const issued = await createCredential(cached.db, { type: 'client', userId: user.id });
    const list = () => cached.app.request('/api/client/cloud', { headers: bearer(issued.token) });
    expect((await list()).status).toBe(200);

    const revokedAt = performance.now();
    await revokeCredential(cached.db, issued.id);
    // Served from the cache: the revocation has not reached this process yet.
    expect((await list()).status).toBe(200);
    expect(await refusedAfter(list, revokedAt)).toBeLessThanOrEqual(CACHE_TTL_MS + 100);
  });

  it('serves the application key of a demoted administrator no longer than the TTL', async () => {
    const admin = await seed.user(cached.db, { admin: true });
    const appKey = await seed.key(cached.db, admin.id, 'application');
    const list = () =>
      cached.app.request('/api/application/cloudsvc/hypervisors', { headers: bearer(appKey) });
    expect((await list()).status).toBe(200);

    const demotedAt = performance.now();
    await setAdmin(cached, admin.id, false);
    expect(await refusedAfter(list, demotedAt)).toBeLessThanOrEqual(CACHE_TTL_MS + 100);
  });
});

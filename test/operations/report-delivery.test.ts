import { createServer, type Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { listOperationsOfInstance } from '../../db/repositories/instances/instance-operation-reads.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import type { Config } from '../../platform/config.js';
import type { ApiServer } from '../../server/start.js';
import { provisionInstance } from '../../services/instances/provision.js';
import { type InProcessAgent, startInProcessAgent } from '../support/agents/in-process.js';
import { eventually } from '../support/eventually.js';
import { json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { FAST_AGENT_TIMING, startStack } from '../support/stack.js';
import { startTestWorker, type TestWorker } from '../support/worker.js';

/**
 * A TCP relay in front of the Temporal frontend that can be cut and restored, so the API loses
 * Temporal while the worker (connected directly) and the database stay.
 */
class TemporalRelay {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: string) {}

  async open(): Promise<void> {
    const [host, port] = this.target.split(':');
    this.#server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect({ port: Number(port), host: host ?? '127.0.0.1' });
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.#server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.#server.address() as { port: number }).port;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

let relay: TemporalRelay;
let server: ApiServer & { config: Config };
let worker: TestWorker;
let agent: InProcessAgent;
let ownerId: string;
let clientKey: string;
let hypervisor: { id: string; location_id: string };

beforeAll(async () => {
  relay = new TemporalRelay(inject('temporalAddress'));
  await relay.open();
  server = await startStack({
    listen: true,
    config: {
      ...FAST_AGENT_TIMING,
      AGENT_TASK_HEARTBEAT_TIMEOUT_MS: '20000',
      TEMPORAL_ADDRESS: `127.0.0.1:${relay.port}`,
      TEMPORAL_RPC_TIMEOUT_MS: '1000',
      DATABASE_POOL_SIZE: '2',
    },
  });
  worker = await startTestWorker({ ...server.config, TEMPORAL_ADDRESS: inject('temporalAddress') });
  const owner = await seed.user(server.deps.db);
  ownerId = owner.id;
  clientKey = await seed.key(server.deps.db, owner.id, 'client');
  hypervisor = await seed.hypervisor(server.deps.db);
  const token = await createCredential(server.deps.db, {
    type: 'enrollment',
    hypervisorId: hypervisor.id,
    expiresAt: new Date(Date.now() + 60_000),
  });
  agent = startInProcessAgent({
    AGENT_PANEL_URL: server.url,
    AGENT_ENROLLMENT_TOKEN: token.token,
    AGENT_SIM_LATENCY_MS: JSON.stringify({ 'instance.power': 1500, default: 0 }),
  });
  await eventually(async () => (await findHypervisor(server.deps.db, hypervisor.id))?.status === 'online');
});
afterAll(async () => {
  await agent?.stop();
  await worker?.stop();
  await server?.close();
  await relay?.cut();
});

/** A stop on an instance of a hypervisor whose agent is this test, speaking the Agent API by hand. */
async function handDrivenStop() {
  const db = server.deps.db;
  const other = await seed.hypervisor(db);
  const { token } = await createCredential(db, { type: 'agent', hypervisorId: other.id });
  const instance = await seed.instance(db, {
    userId: ownerId,
    locationId: other.location_id,
    hypervisorId: other.id,
  });
  const call = (path: string, body?: unknown) =>
    fetch(`${server.url}/api/cloudsvc/agent${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const power = await fetch(`${server.url}/api/client/cloud/${instance.id}/power`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${clientKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'stop' }),
  });
  expect(power.status).toBe(202);
  const offered = (await json(await call('/tasks/next?wait_ms=10000'))).attributes;
  return { call, offered, instance };
}

describe('reports while Temporal is unreachable', () => {
  it('reads still answer, reports get 503 and are retried, and the task completes exactly once', async () => {
    const db = server.deps.db;
    const instance = await seed.instance(db, {
      userId: ownerId,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
      status: 'provisioning',
    });
    const provisioning = await provisionInstance(
      server.deps,
      { type: 'system', name: 'test' },
      instance,
      'debian-12',
      null,
    );
    await server.deps.temporal.workflow.getHandle(provisioning.workflowId).result();

    const stop = await fetch(`${server.url}/api/client/cloud/${instance.id}/power`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${clientKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(stop.status).toBe(202);
    const [operation] = await listOperationsOfInstance(db, instance.id, 1);
    const task = await eventually(
      async () =>
        db
          .selectFrom('agent_tasks')
          .select(['id', 'status'])
          .where('workflow_id', '=', operation!.workflow_id)
          .where('status', '=', 'running')
          .executeTakeFirst(),
      10_000,
      'the stop to run',
    );

    await relay.cut();
    // The agent's reports (its progress, then its completion) are answered 503 and retried.
    await eventually(
      () => agent.output.some((line) => line.includes('"status":503')),
      15_000,
      'a 503 answer to the agent',
    );

    // Reads do not wait for Temporal, and the pool (2 connections) is not held by the reports.
    const reads = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${server.url}/api/client/cloud/${instance.id}`, {
          headers: { Authorization: `Bearer ${clientKey}` },
        }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await json(reads[0]!)).attributes.status).toBe('stopping');

    await relay.open();
    expect(await server.deps.temporal.workflow.getHandle(operation!.workflow_id).result()).toEqual({
      power_state: 'stopped',
    });
    expect((await findInstance(db, instance.id))?.status).toBe('stopped');
    // The API marks the report delivered once Temporal has answered, which may be after the
    // workflow it woke has already finished.
    const completions = await eventually(
      async () => {
        const rows = await db
          .selectFrom('agent_task_reports')
          .select(['sequence', 'delivered_at'])
          .where('task_id', '=', task.id)
          .where('kind', '=', 'completed')
          .execute();
        return rows.length > 0 && rows.every((row) => row.delivered_at !== null) ? rows : undefined;
      },
      10_000,
      'the completion to be marked delivered',
    );
    expect(completions).toHaveLength(1);
    expect(
      (
        await db
          .selectFrom('agent_tasks')
          .select('status')
          .where('id', '=', task.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('completed');
    const history = await server.deps.temporal.workflow.getHandle(operation!.workflow_id).fetchHistory();
    // The agent step completed once (bookkeeping runs as local activities, recorded as markers).
    const completed = (history.events ?? []).filter((e) => e.activityTaskCompletedEventAttributes);
    expect(completed).toHaveLength(1);
    expect(
      agent.hypervisor().applied.filter((a) => a.instance_id === instance.id && a.type === 'instance.power'),
    ).toHaveLength(1);
  });

  it('a completion taken while Temporal is away is recorded, and delivered when the agent repeats it', async () => {
    const { call, offered, instance } = await handDrivenStop();
    expect((await call(`/tasks/${offered.task_id}/started`, { sequence: 1 })).status).toBe(200);

    await relay.cut();
    const refused = await call(`/tasks/${offered.task_id}/completed`, {
      sequence: 2,
      result: { power_state: 'stopped' },
    });
    expect(refused.status).toBe(503);
    expect((await json(refused)).errors[0].code).toBe('SVC-SYS-503');
    const db = server.deps.db;
    expect(
      await db
        .selectFrom('agent_task_reports')
        .select(['kind', 'delivered_at'])
        .where('task_id', '=', offered.task_id)
        .where('sequence', '=', 2)
        .executeTakeFirstOrThrow(),
    ).toEqual({ kind: 'completed', delivered_at: null });
    // A completion is recorded as what the agent did, whatever Temporal says later.
    expect(
      (
        await db
          .selectFrom('agent_tasks')
          .select('status')
          .where('id', '=', offered.task_id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('completed');

    await relay.open();
    const accepted = await eventually(
      async () => {
        const res = await call(`/tasks/${offered.task_id}/completed`, {
          sequence: 2,
          result: { power_state: 'stopped' },
        });
        return res.status === 200 ? json(res) : undefined;
      },
      20_000,
      'the repeated completion to be taken',
    );
    expect(accepted.attributes).toMatchObject({ state: 'completed', directive: 'stop' });
    const [operation] = await listOperationsOfInstance(db, instance.id, 1);
    expect(await server.deps.temporal.workflow.getHandle(operation!.workflow_id).result()).toEqual({
      power_state: 'stopped',
    });
    // A third copy: the stored answer, nothing delivered again.
    const third = await call(`/tasks/${offered.task_id}/completed`, {
      sequence: 2,
      result: { power_state: 'stopped' },
    });
    expect(await json(third)).toEqual(accepted);
  });

  it('a sequence reused with another kind of report is refused with SVC-REPORT-409', async () => {
    const db = server.deps.db;
    const other = await seed.hypervisor(db);
    const { token } = await createCredential(db, { type: 'agent', hypervisorId: other.id });
    const instance = await seed.instance(db, {
      userId: ownerId,
      locationId: other.location_id,
      hypervisorId: other.id,
    });
    const call = (path: string, body?: unknown) =>
      fetch(`${server.url}/api/cloudsvc/agent${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const power = await fetch(`${server.url}/api/client/cloud/${instance.id}/power`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${clientKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(power.status).toBe(202);
    const offered = (await json(await call('/tasks/next?wait_ms=10000'))).attributes;
    expect((await call(`/tasks/${offered.task_id}/started`, { sequence: 1 })).status).toBe(200);
    const reused = await call(`/tasks/${offered.task_id}/progress`, { sequence: 1, percent: 50 });
    expect(reused.status).toBe(409);
    expect((await json(reused)).errors[0].code).toBe('SVC-REPORT-409');
    // The refused report changed nothing; the task goes on.
    const done = await call(`/tasks/${offered.task_id}/completed`, {
      sequence: 2,
      result: { power_state: 'stopped' },
    });
    expect((await json(done)).attributes.state).toBe('completed');
    expect(
      await db
        .selectFrom('agent_task_reports')
        .select(['sequence', 'kind'])
        .where('task_id', '=', offered.task_id)
        .orderBy('sequence')
        .execute(),
    ).toEqual([
      { sequence: 1, kind: 'started' },
      { sequence: 2, kind: 'completed' },
    ]);
  });
});

describe('report bodies', () => {
  it('a result holding a NUL character is refused with 400 and changes nothing', async () => {
    const { call, offered } = await handDrivenStop();
    const refused = await call(`/tasks/${offered.task_id}/completed`, {
      sequence: 1,
      result: { power_state: 'stopped', note: 'a\u0000b' },
    });
    expect(refused.status).toBe(400);
    expect((await json(refused)).errors[0].code).toBe('SVC-REQ-400');
    const db = server.deps.db;
    expect(
      await db
        .selectFrom('agent_task_reports')
        .select('sequence')
        .where('task_id', '=', offered.task_id)
        .execute(),
    ).toEqual([]);
    expect(
      (
        await db
          .selectFrom('agent_tasks')
          .select('status')
          .where('id', '=', offered.task_id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('leased');
  });
});

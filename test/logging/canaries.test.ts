import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { CREDENTIAL_PREFIXES, CREDENTIAL_TYPES } from '../../domain/credentials.js';
import { webhookStreamWorkflowId } from '../../domain/events/delivery.js';
import { relayEvents } from '../../services/webhooks/relay.js';
import { captureAllOutput } from '../support/captured-output.js';
import { eventually } from '../support/eventually.js';
import { bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { startTestWorker, type TestWorker } from '../support/worker.js';

/**
 * Secrets never reach a log line (docs/operations.md "Logging"). Canary secrets go in through every route that
 * takes one, with the API and the worker (the Temporal runtime's own lines included) logging at
 * debug, and everything the process writes to stdout, stderr or the console is searched for them.
 */
process.env.TEST_LOG_LEVEL = 'debug';

let output: string[] = [];
let restore = () => {};

/** Every secret planted; a test adds its own before it sends them. */
const canaries: string[] = [];
function plant(secret: string): string {
  canaries.push(secret);
  return secret;
}
const opaque = () => randomBytes(24).toString('base64url');

/** No canary, nor the secret part of one (past a key's prefix and six-character hint), in any output. */
function expectNoCanaryLogged() {
  const text = output.join('\n');
  for (const canary of canaries) {
    const secretPart = /^cs[a-z]_/.test(canary) ? canary.slice(10) : canary;
    expect(text.includes(secretPart), `a canary in the log: ${canary.slice(0, 10)}…`).toBe(false);
  }
}

const records = () =>
  output
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

let t: Stack;
let worker: TestWorker;
let appKey: string;
let clientKey: string;
let ownerId: string;

beforeAll(async () => {
  ({ output, restore } = captureAllOutput({ console: true }));
  t = await startStack({
    config: {
      ...FAST_AGENT_TIMING,
      LOG_LEVEL: 'debug',
      TRUST_PROXY_HOPS: '1',
      CONSOLE_GATEWAY_URL: 'http://127.0.0.1:9/console',
      WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.1/32',
    },
  });
  worker = await startTestWorker(t.config);
  const admin = await seed.user(t.db, { admin: true });
  const owner = await seed.user(t.db);
  ownerId = owner.id;
  appKey = plant(await seed.key(t.db, admin.id, 'application'));
  clientKey = plant(await seed.key(t.db, owner.id, 'client'));
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  restore();
});

const enroll = (body: unknown) =>
  t.app.request('/api/cloudsvc/agent/enroll', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.7' },
    body: JSON.stringify(body),
  });

describe('secrets in requests', () => {
  it('enrollment tokens in the body: used, unknown, or in a body that is refused', async () => {
    const hypervisor = await seed.hypervisor(t.db);
    const issued = await t.app.request(
      `/api/application/cloudsvc/hypervisors/${hypervisor.id}/enrollment-token`,
      { method: 'POST', headers: bearer(appKey) },
    );
    expect(issued.status).toBe(201);
    const token = plant((await json(issued)).attributes.token);

    const enrolled = await enroll({ token, agent_version: '1.0.0' });
    expect(enrolled.status).toBe(201);
    plant((await json(enrolled)).attributes.credential);
    expect((await enroll({ token, agent_version: '1.0.0' })).status).toBe(401);
    expect((await enroll({ token: plant(`cse_${opaque()}`), agent_version: '1.0.0' })).status).toBe(401);
    expect((await enroll({ token: plant(opaque()), agent_version: 7, extra: plant(opaque()) })).status).toBe(
      400,
    );

    expect(records().filter((r) => r.msg === 'request refused').length).toBeGreaterThanOrEqual(3);
    expectNoCanaryLogged();
  });

  it('console connect and stream tokens: shown once, redeemed, replayed, unknown, or in a body that is refused', async () => {
    const location = await seed.location(t.db);
    const hypervisor = await seed.hypervisor(t.db, location.id);
    await t.db
      .updateTable('hypervisors')
      .set({ reported_capabilities: JSON.stringify(['console_serial']) })
      .where('id', '=', hypervisor.id)
      .execute();
    const instance = await seed.instance(t.db, {
      userId: ownerId,
      locationId: location.id,
      hypervisorId: hypervisor.id,
    });
    const gateway = plant(await seed.gatewayCredential(t.db));
    const opened = await t.app.request(`/api/client/cloud/${instance.id}/console/session`, {
      method: 'POST',
      headers: bearer(clientKey),
    });
    expect(opened.status).toBe(201);
    const token = plant((await json(opened)).attributes.connect_token);
    const validate = (body: unknown) =>
      t.app.request('/api/application/cloudsvc/console/internal/validate', {
        method: 'POST',
        headers: jsonHeaders(gateway),
        body: JSON.stringify(body),
      });
    const beat = await t.app.request('/api/application/cloudsvc/console/internal/heartbeat', {
      method: 'POST',
      headers: jsonHeaders(gateway),
      body: JSON.stringify({ relay_url: 'ws://127.0.0.1:9/relay' }),
    });
    expect(beat.status).toBe(200);
    const granted = await validate({ connect_token: token });
    expect(granted.status).toBe(200);
    plant((await json(granted)).attributes.stream_token);
    expect((await validate({ connect_token: token })).status).toBe(401);
    expect((await validate({ connect_token: plant(`cso_${opaque()}`) })).status).toBe(401);
    expect((await validate({ connect_token: plant(`cso_${opaque()}`), extra: plant(opaque()) })).status).toBe(
      400,
    );
    expectNoCanaryLogged();
  });

  it('every credential type, and unknown and malformed ones, on every route of every API', async () => {
    const hypervisor = await seed.hypervisor(t.db);
    const valid = [
      clientKey,
      appKey,
      plant((await createCredential(t.db, { type: 'agent', hypervisorId: hypervisor.id })).token),
      plant(await seed.gatewayCredential(t.db)),
      plant(
        (
          await createCredential(t.db, {
            type: 'enrollment',
            hypervisorId: hypervisor.id,
            expiresAt: new Date(Date.now() + 60_000),
          })
        ).token,
      ),
    ];
    const unknown = CREDENTIAL_TYPES.map((type) => plant(`${CREDENTIAL_PREFIXES[type]}${opaque()}`));
    const authorizations = [
      ...[...valid, ...unknown].map((token) => `Bearer ${token}`),
      `Bearer ${plant(opaque())}`,
      `Basic ${plant(Buffer.from(`admin:${opaque()}`).toString('base64'))}`,
      plant(opaque()),
    ];

    const routes = [
      ...new Map(
        t.app.routes
          .filter((r) => r.method !== 'ALL' && (r.path.startsWith('/api/') || r.path.startsWith('/admin/')))
          .map((r) => [`${r.method} ${r.path}`, r]),
      ).values(),
    ];
    expect(routes.length).toBeGreaterThan(20);
    let sent = 0;
    for (const route of routes) {
      const path =
        route.path.replace(/:(\w+)(\{[^}]*\})?/g, () => randomUUID()) +
        (route.path.endsWith('/tasks/next') ? '?wait_ms=0' : '');
      for (const authorization of authorizations) {
        const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
        const res = await t.app.request(path, {
          method: route.method,
          headers: {
            Authorization: authorization,
            ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
            'X-Forwarded-For': '198.51.100.8',
          },
          body: hasBody ? JSON.stringify({ token: plant(opaque()), password: plant(opaque()) }) : undefined,
        });
        expect(res.status, `${route.method} ${path}`).toBeLessThan(500);
        sent++;
      }
    }
    // A key pasted into a path is logged with the path, its secret cut.
    const pasted = await t.app.request(`/api/client/cloud/${clientKey}`, { headers: bearer(clientKey) });
    expect(pasted.status).toBe(404);

    const lines = records();
    expect(lines.filter((r) => r.msg === 'request').length).toBeGreaterThanOrEqual(sent);
    expect(lines.some((r) => r.path === '/api/client/cloud/csc_[redacted]')).toBe(true);
    expectNoCanaryLogged();
  });

  it('an agent report whose messages carry secrets, through Temporal and the worker', async () => {
    const hypervisor = await seed.hypervisor(t.db);
    const credential = plant(
      (await createCredential(t.db, { type: 'agent', hypervisorId: hypervisor.id })).token,
    );
    const instance = await seed.instance(t.db, {
      userId: ownerId,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
    });
    const agent = (path: string, body?: unknown) =>
      t.app.request(`/api/cloudsvc/agent${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: jsonHeaders(credential),
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const stop = await t.app.request(`/api/client/cloud/${instance.id}/power`, {
      method: 'POST',
      headers: jsonHeaders(clientKey),
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(stop.status).toBe(202);
    const task = (await json(await agent('/tasks/next?wait_ms=10000'))).attributes;
    let sequence = task.next_sequence;
    expect((await agent(`/tasks/${task.task_id}/started`, { sequence: sequence++ })).status).toBe(200);
    const progress = await agent(`/tasks/${task.task_id}/progress`, {
      sequence: sequence++,
      percent: 50,
      message: `stopping; guest agent said password=${plant(opaque())} and token ${plant(`csg_${opaque()}`)}`,
    });
    expect(progress.status).toBe(200);
    const failed = await agent(`/tasks/${task.task_id}/failed`, {
      sequence: sequence++,
      error: {
        code: 'GUEST_REFUSED',
        message: `shutdown refused: secret=${plant(opaque())} Authorization: Bearer ${plant(opaque())}`,
        retryable: false,
      },
    });
    expect(failed.status).toBe(200);
    // The ending asks the guest's state, as the panel settles a failed operation from it.
    const asked = (await json(await agent('/tasks/next?wait_ms=10000'))).attributes;
    expect(asked.type).toBe('instance.state');
    expect(
      (await agent(`/tasks/${asked.task_id}/completed`, { sequence: 1, result: { power_state: 'running' } }))
        .status,
    ).toBe(200);

    // The failed stop settles: the instance is running (as reported), and the worker has logged its part.
    await eventually(
      async () => (await findInstance(t.db, instance.id))?.status === 'running',
      20_000,
      'the stop to settle',
    );
    await eventually(() => records().some((r) => r.msg === 'Workflow failed'), 10_000, "the worker's line");
    const text = output.join('');
    // The failure reached the worker's log through Temporal, and the secret in it was cut there.
    expect(text).toContain('shutdown refused: secret=[redacted]');
    // The SDK logs each activity's task token; in our lines it is never more than its name.
    const taskTokens = text.match(/"taskToken":[^,}]*/g) ?? [];
    expect(taskTokens.length).toBeGreaterThan(0);
    expect(new Set(taskTokens)).toEqual(new Set(['"taskToken":"[redacted]"']));
    expectNoCanaryLogged();
  });

  it('a webhook endpoint’s secrets, shown at its creation and rotation and signing its delivery: in no log line, nor in the delivery run’s history', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const call = (path: string, body?: unknown) =>
        t.app.request(`/api/client/cloud/webhooks${path}`, {
          method: 'POST',
          headers: jsonHeaders(clientKey),
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const created = await call('', { url: receiver.url(), event_types: ['instance.suspended'] });
      expect(created.status).toBe(201);
      const endpoint = (await json(created)).attributes;
      const rotated = (await json(await call(`/${endpoint.uuid}/secret/rotate`))).attributes;
      // Past `whsec_`: the secret's bytes, which both sign the delivery (the rotation's overlap).
      for (const secret of [endpoint.secret, rotated.secret]) plant(secret.slice('whsec_'.length));
      receiver.trust(rotated.secret);
      const instance = await seed.instance(t.db, {
        userId: ownerId,
        locationId: (await seed.location(t.db)).id,
      });
      await markSuspended(t.db, instance.id);
      await eventually(
        async () => {
          await relayEvents(t.deps);
          return receiver.accepted.size === 1;
        },
        20_000,
        'the delivery, verified with the rotated secret',
      );
      const history = await t.temporal.workflow
        .getHandle(webhookStreamWorkflowId(endpoint.uuid, instance.id))
        .fetchHistory();
      const text = JSON.stringify(history, (_key, value) =>
        value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
      );
      // The search reads payloads: the run's input names its endpoint.
      expect(text).toContain(endpoint.uuid);
      for (const secret of [endpoint.secret, rotated.secret]) expect(text).not.toContain(secret.slice(6));
      expectNoCanaryLogged();
    } finally {
      await receiver.close();
    }
  });

  it('a key the CLI issues: printed once to its user, in no log line of the CLI or the API', async () => {
    const { email } = await seed.user(t.db);
    const bin = fileURLToPath(new URL('../../bin/cloudsvc.js', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(
      'node',
      [bin, 'keys:create', '--type', 'client', '--user', email, '--json'],
      { env: { ...process.env, DATABASE_URL: t.config.DATABASE_URL, LOG_LEVEL: 'debug' } },
    );
    const key = plant(JSON.parse(stdout).token);
    expect(stderr).not.toContain(key.slice(10));
    expect((await t.app.request('/api/client/cloud', { headers: bearer(key) })).status).toBe(200);
    expectNoCanaryLogged();
  });
});

import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { insertSshKeyWithin } from '../../db/repositories/accounts/ssh-keys.js';
import { listEventsOfResource } from '../../db/repositories/events/outbox.js';
import { insertDeliveriesOf } from '../../db/repositories/events/webhook-deliveries.js';
import { insertEndpointWithin } from '../../db/repositories/events/webhook-endpoints.js';
import { queueAgentTask, withdrawQueuedTask } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { setHypervisorStatus } from '../../db/repositories/hypervisors/hypervisors.js';
import { insertPolicy } from '../../db/repositories/storage/backup-policies.js';
import { insertBackup, moveBackup } from '../../db/repositories/storage/backups.js';
import { insertSnapshot, moveSnapshot } from '../../db/repositories/storage/snapshots.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import type { CredentialType } from '../../domain/credentials.js';
import { generateWebhookSecret, secretBox } from '../../platform/secrets.js';
import { APPLICATION_BASE } from '../../wire/paths.js';
import { isolatedDatabase } from '../support/database.js';
import { apiOf, type Route, registeredRoutes } from '../support/routes.js';
import { seed } from '../support/seed.js';
import { startStack } from '../support/stack.js';
import { massAssignmentRequest, requestsFor, type Target, takesJsonBody } from './requests.js';
import { fuzzRoute, newStats, type RouteStats, statsTable } from './runner.js';
import { unsatisfiablePatterns } from './schema.js';
import type { Hints } from './valid-values.js';

/**
 * The property-based fuzz suite (issue 7, item 6): every route the app registers, with requests
 * generated from its OpenAPI operation, through the app in process, on a database of its own.
 * FUZZ_RUNS requests in all (default 1,000, the slice `npm test` runs; `npm run test:fuzz` sends
 * 10,000 and prints a table per route), spread evenly over the routes. A failure names its seed
 * and path: FUZZ_SEED=<seed> FUZZ_ROUTE='<METHOD /path>' FUZZ_PATH=<path> replays that request.
 *
 * Each API gets its own credential, so that validation, not authentication, is what is fuzzed.
 * No worker runs: a valid power action starts its workflow, which waits untouched on this file's
 * task queue, so nothing changes the database behind the requests' backs. A route that waits for
 * an agent's answer is fuzzed with ids that name nothing (it would hold each request 15 s).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PRINT_TABLE = process.env.FUZZ_RUNS !== undefined;
/** Fuzzes only the route `METHOD /path` named so, or else the routes whose key contains this. */
const ONLY = process.env.FUZZ_ROUTE;
/** With FUZZ_SEED and FUZZ_ROUTE, replays the one request of a failure's `path`. */
const REPLAY_PATH = process.env.FUZZ_PATH;

/** Routes that hold the request until an agent answers. */
const WAITS_FOR_AN_AGENT = new Set(['POST /api/application/cloudsvc/hypervisors/:hypervisor/probe']);

const database = await isolatedDatabase();
const t = await startStack({
  config: {
    DATABASE_URL: database.url,
    // Limits would answer 429 in place of the validation this is about; limits have their own tests.
    ENROLLMENT_RATE_LIMIT_PER_MINUTE: '1000000000',
    INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000000000',
    CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE: '1000000000',
    // Configured as a provider runs it: without a gateway, console routes answer 503 by design.
    CONSOLE_GATEWAY_URL: 'ws://127.0.0.1:9/connect',
    // A valid poll answers at once instead of holding the request.
    AGENT_POLL_MAX_WAIT_MS: '0',
  },
});
const routes = onlyThose(await registeredRoutes(t.app), ONLY);
const perRoute = Math.ceil(RUNS / routes.length);
const table: RouteStats[] = [];

interface Seeded {
  credentials: Record<CredentialType, string>;
  hints: Hints;
  own: Record<string, string>;
  /** The Application API's own where they differ from a customer's: the plane's webhook endpoint and its delivery. */
  planeOwn: Record<string, string>;
  /** Endpoints a valid delete may take, one per API, so that the routes after it still find theirs. */
  deletable: { client: string; plane: string };
  foreign: Record<string, string>;
}

/** An OpenSSH ed25519 public key line around 32 key bytes: what the wire format checks. */
function sshPublicKey(key: Uint8Array): string {
  const field = (bytes: Uint8Array) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const type = new TextEncoder().encode('ssh-ed25519');
  return `ssh-ed25519 ${Buffer.concat([field(type), field(key)]).toString('base64')} fuzz`;
}
let seeded: Seeded;

beforeAll(async () => {
  const db = t.db;
  const customer = await seed.user(db);
  const other = await seed.user(db);
  const admin = await seed.user(db, { admin: true });
  const location = await seed.location(db);
  // Separate hypervisors, so that no valid request to one API ends another's credential: the
  // Application API's revoke-agent and enrollment-token act on their own, enroll consumes a token
  // of a third, and the agent's stays live throughout.
  const agentHypervisor = await seed.hypervisor(db, location.id);
  const otherHypervisor = await seed.hypervisor(db, location.id);
  const adminHypervisor = await seed.hypervisor(db, location.id);
  const enrolledHypervisor = await seed.hypervisor(db, location.id);
  const instance = await seed.instance(db, {
    userId: customer.id,
    locationId: location.id,
    hypervisorId: agentHypervisor.id,
  });
  const foreignInstance = await seed.instance(db, {
    userId: other.id,
    locationId: location.id,
    hypervisorId: otherHypervisor.id,
  });
  const task = (hypervisorId: string) =>
    queueAgentTask(db, {
      hypervisorId,
      type: 'instance.power',
      params: { instance_id: instance.id, action: 'stop' },
      taskToken: new Uint8Array([1]),
      workflowId: `fuzz-${randomUUID()}`,
      runId: randomUUID(),
      activityId: '1',
      attempt: 1,
      correlationId: null,
    });
  // Withdrawn: reports on it are recorded and answered `stop` without reaching Temporal, which
  // would refuse a task token it never issued.
  const ownTaskId = await task(agentHypervisor.id);
  await withdrawQueuedTask(db, ownTaskId, 'FUZZ');
  const foreignTaskId = await task(otherHypervisor.id);
  const issue = async (type: 'agent' | 'enrollment', hypervisorId: string) =>
    (
      await createCredential(db, {
        type,
        hypervisorId,
        expiresAt: type === 'enrollment' ? new Date(Date.now() + 3_600_000) : null,
      })
    ).token;
  const enrollmentToken = await issue('enrollment', enrolledHypervisor.id);
  const sshKey = (userId: string) =>
    db.transaction().execute(async (trx) => {
      const key = sshPublicKey(new Uint8Array(32).fill(7));
      const row = await insertSshKeyWithin(
        trx,
        { userId, name: 'fuzz', publicKey: key, fingerprint: `SHA256:${userId}` },
        100,
      );
      return row!.id;
    });
  const catalog = await seed.catalog(db);
  // Somewhere to place a new instance: an online hypervisor with room, and addresses.
  await setHypervisorStatus(db, agentHypervisor.id, 'online');
  await seed.uniqueIpv4Pool(db, location.id);
  const ownSshKeyId = await sshKey(customer.id);
  // Backups, snapshots and schedules of each tenant's instance: available, so that valid requests act on them.
  const artifactsOf = async (instanceId: string, userId: string) => {
    const on = { instanceId, userId, name: 'fuzz' };
    const facts = {
      from: ['creating'] as const,
      to: 'available' as const,
      sizeMb: 1,
      checksum: '0'.repeat(64),
    };
    const backup = await insertBackup(db, { id: randomUUID(), ...on, policyId: null });
    await moveBackup(db, { backupId: backup.id, ...facts });
    const snapshot = await insertSnapshot(db, { id: randomUUID(), ...on });
    await moveSnapshot(db, { snapshotId: snapshot.id, ...facts });
    const policy = await insertPolicy(db, {
      id: randomUUID(),
      ...on,
      cron: '0 3 29 2 *',
      intervalMinutes: null,
      keepLast: 7,
      keepDays: null,
      paused: true,
    });
    return { cloudBackup: backup.id, cloudSnapshot: snapshot.id, backupPolicy: policy.id };
  };
  // A webhook endpoint of each owner, each with a delivery of its owner's instance's creation.
  const endpoint = (owner: { userId: string } | 'plane') =>
    db.transaction().execute(async (trx) => {
      const row = await insertEndpointWithin(
        trx,
        {
          owner,
          url: 'https://hooks.example.com/fuzz',
          description: 'fuzz',
          eventTypes: ['instance.created'],
          enabled: true,
          secretSealed: secretBox(t.config.SECRETS_KEY).seal(generateWebhookSecret()),
          apiVersion: CURRENT_API_VERSION,
        },
        t.config.WEBHOOK_ENDPOINTS_MAX,
      );
      return row!.id;
    });
  const webhooks = {
    own: await endpoint({ userId: customer.id }),
    plane: await endpoint('plane'),
    foreign: await endpoint({ userId: other.id }),
  };
  const creations = await Promise.all(
    [instance, foreignInstance].map(async (i) => (await listEventsOfResource(db, i.id))[0]!.id),
  );
  await db.transaction().execute((trx) => insertDeliveriesOf(trx, creations));
  const deliveryTo = async (endpointId: string, eventId: string) =>
    (
      await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow()
    ).id;
  seeded = {
    credentials: {
      client: await seed.key(db, customer.id, 'client'),
      application: await seed.key(db, admin.id, 'application'),
      agent: await issue('agent', agentHypervisor.id),
      console_gateway: await seed.gatewayCredential(db),
      enrollment: enrollmentToken,
    },
    // By field name: values the schemas cannot know, so that valid requests reach the handlers.
    hints: {
      location_uuid: fc.constant(location.id),
      location: fc.constant(location.code),
      plan: fc.constant(catalog.plan.code),
      image: fc.constant(catalog.image.code),
      ssh_keys: fc.constant([ownSshKeyId]),
      hostname: fc.domain(),
      timezone: fc.constantFrom(
        'UTC',
        'Europe/Berlin',
        'America/St_Johns',
        'Asia/Kathmandu',
        'Pacific/Chatham',
      ),
      public_key: fc.uint8Array({ minLength: 32, maxLength: 32 }).map(sshPublicKey),
      instance_uuid: fc.constant(instance.id),
      token: fc.constant(enrollmentToken),
      // A webhook endpoint's (and an ISO's): public https, as the SSRF rule takes.
      url: fc.constantFrom('https://hooks.example.com/cloudsvc', 'https://billing.example.org/webhooks?v=1'),
    },
    own: {
      cloudInstance: instance.id,
      hypervisor: adminHypervisor.id,
      task: ownTaskId,
      keyUuid: ownSshKeyId,
      webhookUuid: webhooks.own,
      deliveryUuid: await deliveryTo(webhooks.own, creations[0]!),
      ...(await artifactsOf(instance.id, customer.id)),
    },
    planeOwn: {
      webhookUuid: webhooks.plane,
      deliveryUuid: await deliveryTo(webhooks.plane, creations[1]!),
    },
    deletable: { client: await endpoint({ userId: customer.id }), plane: await endpoint('plane') },
    foreign: {
      cloudInstance: foreignInstance.id,
      task: foreignTaskId,
      keyUuid: await sshKey(other.id),
      webhookUuid: webhooks.foreign,
      deliveryUuid: await deliveryTo(webhooks.foreign, creations[1]!),
      ...(await artifactsOf(foreignInstance.id, other.id)),
    },
  };
});

afterAll(async () => {
  if (PRINT_TABLE) {
    const notes = [...unsatisfiablePatterns].map(
      (p) => `note: no string matches the documented pattern ${JSON.stringify(p)}`,
    );
    console.log([`fuzz: ${RUNS} requests asked, seed ${SEED}`, statsTable(table), ...notes].join('\n'));
  }
  await t.close();
  await database.drop();
});

function targetOf(route: Route): Target {
  const key = `${route.method} ${route.path}`;
  const api = apiOf(route.path);
  const isPublic = api === undefined || route.documented?.operation.security?.length === 0;
  return {
    route,
    token: isPublic ? undefined : seeded.credentials[api.takes],
    bodyLimit: isPublic ? t.config.UNAUTHENTICATED_BODY_LIMIT_BYTES : t.config.BODY_LIMIT_BYTES,
    ownIds: ownIdsOf(route),
    // Another tenant exists only where an API has tenants; an administrator sees everything.
    foreignIds: api?.tenant ? seeded.foreign : {},
    waitsForAgent: WAITS_FOR_AN_AGENT.has(key),
    hints: seeded.hints,
  };
}

describe(`fuzz: ${RUNS} requests over ${routes.length} routes`, () => {
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    it(
      key,
      async () => {
        const stats = newStats(key);
        table.push(stats);
        await fuzzRoute({
          t,
          requests: requestsFor(targetOf(route)),
          numRuns: perRoute,
          seed: SEED,
          path: REPLAY_PATH,
          stats,
        });
      },
      Math.max(60_000, perRoute * 200),
    );
  }
});

/**
 * Certain, not left to the draw: every write gets one request carrying every field its caller
 * must not set (status, owner, hypervisor, placement, …) beside a valid body, judged as any other.
 */
const writes = routes.filter(takesJsonBody);
describe(`mass assignment: every write (${writes.length} routes)`, () => {
  for (const route of writes) {
    const key = `${route.method} ${route.path}`;
    it(key, async () => {
      await fuzzRoute({
        t,
        requests: fc.constant(massAssignmentRequest(targetOf(route), SEED)!),
        numRuns: 1,
        seed: SEED,
        stats: newStats(key),
      });
    });
  }
});

/** The resources a route's valid requests act on: its API's own, and a spare for a delete. */
function ownIdsOf(route: Route): Record<string, string> {
  const plane = route.path.startsWith(APPLICATION_BASE);
  const own = { ...seeded.own, ...(plane && seeded.planeOwn) };
  if (route.method === 'DELETE' && route.path.endsWith('/webhooks/:webhookUuid'))
    return { ...own, webhookUuid: plane ? seeded.deletable.plane : seeded.deletable.client };
  return own;
}

function onlyThose(all: Route[], only: string | undefined): Route[] {
  if (only === undefined) return all;
  const key = (r: Route) => `${r.method} ${r.path}`;
  const exact = all.filter((r) => key(r) === only);
  return exact.length > 0 ? exact : all.filter((r) => key(r).includes(only));
}

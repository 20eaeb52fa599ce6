import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { insertSshKeyWithin } from '../../db/repositories/accounts/ssh-keys.js';
import { listEventsOfResource } from '../../db/repositories/events/outbox.js';
import { insertDeliveriesOf } from '../../db/repositories/events/webhook-deliveries.js';
import { insertEndpointWithin } from '../../db/repositories/events/webhook-endpoints.js';
import { queueAgentTask } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { insertConsoleSession } from '../../db/repositories/instances/console-sessions.js';
import { insertPlacementGroup } from '../../db/repositories/instances/placement-groups.js';
import { insertScheduledActionWithin } from '../../db/repositories/instances/scheduled-actions.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { insertPrivateNetworkWithin } from '../../db/repositories/network/private-networks.js';
import { insertPolicy } from '../../db/repositories/storage/backup-policies.js';
import { insertBackup } from '../../db/repositories/storage/backups.js';
import { insertSnapshot } from '../../db/repositories/storage/snapshots.js';
import { insertVolumeWithin } from '../../db/repositories/storage/volumes.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { CREDENTIAL_PREFIXES, CREDENTIAL_TYPES, type CredentialType } from '../../domain/credentials.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import type { Body } from '../support/http.js';
import { apiOf, pathWith, type Route, registeredRoutes } from '../support/routes.js';
import { seed } from '../support/seed.js';
import { startStack } from '../support/stack.js';

/**
 * Every route the app registers, swept with every credential it must refuse (SPEC.md §5, docs/api.md
 * "Credentials"): none, an unknown one, each valid credential of another type; and for each path
 * id, an unknown one, a malformed one, and another tenant's. Routes are read from the app itself,
 * so a route is swept the day it is registered; a public one must be declared below. The sweep
 * runs on a database of its own, which must be unchanged at the end.
 */
const database = await isolatedDatabase();
const t = await startStack({
  config: { DATABASE_URL: database.url, CONSOLE_GATEWAY_URL: 'ws://127.0.0.1:9/connect' },
});

/** Routes that take no bearer credential, each with a request that exercises it. */
const PUBLIC_ROUTES: Record<string, string> = {
  'GET /healthz': '/healthz',
  'GET /readyz': '/readyz',
  // The console page and its assets: the session's token is in the page's fragment, never sent.
  'GET /console/assets/:name': '/console/assets/xterm.js',
  'GET /console/:session': '/console/9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d',
  'GET /docs': '/docs',
  'GET /docs/:name': '/docs/client',
  'GET /docs/assets/:file': '/docs/assets/reference.js',
  // Where a deprecation's Link points: the versions and what each changed.
  'GET /docs/api-changelog': '/docs/api-changelog',
  'GET /openapi/:name{(client|application|console-internal|agent|admin)\\.json}': '/openapi/client.json',
  // Takes its one-time token in the body (checked below), not as a bearer credential.
  'POST /api/cloudsvc/agent/enroll': '/api/cloudsvc/agent/enroll',
};

/**
 * The admin pages (web/admin/): they take a session cookie, never a bearer credential. Each page
 * answers a request without a session by sending it to the login page, whatever key it carries;
 * the login page and the pages' assets are public. A new page must be declared here.
 */
const SOME_UUID = '9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d';
const PAGE_ROUTES: Record<string, { path: string; public?: true }> = {
  'GET /admin/cloudsvc/assets/:name': { path: '/admin/cloudsvc/assets/admin.css', public: true },
  'GET /admin/cloudsvc/login': { path: '/admin/cloudsvc/login', public: true },
  'POST /admin/cloudsvc/login': { path: '/admin/cloudsvc/login' },
  'POST /admin/cloudsvc/logout': { path: '/admin/cloudsvc/logout' },
  'GET /admin/cloudsvc/migrations/:migration/view': { path: `/admin/cloudsvc/migrations/${SOME_UUID}/view` },
  'POST /admin/cloudsvc/migrations/:migration/view': { path: `/admin/cloudsvc/migrations/${SOME_UUID}/view` },
  'GET /admin/cloudsvc/instances/view/:instance/migrate/wizard': {
    path: `/admin/cloudsvc/instances/view/${SOME_UUID}/migrate/wizard`,
  },
  'POST /admin/cloudsvc/instances/view/:instance/migrate/wizard': {
    path: `/admin/cloudsvc/instances/view/${SOME_UUID}/migrate/wizard`,
  },
};

/**
 * For each path parameter of a tenant's API, a resource of another tenant: the caller must get
 * the same 404 as for an unknown id. A new kind of id in those APIs must be declared here.
 */
const FOREIGN: Record<string, (s: Seeded) => string> = {
  cloudInstance: (s) => s.foreignInstanceId,
  task: (s) => s.foreignTaskId,
  keyUuid: (s) => s.foreignSshKeyId,
  cloudBackup: (s) => s.foreignBackupId,
  backupPolicy: (s) => s.foreignPolicyId,
  cloudSnapshot: (s) => s.foreignSnapshotId,
  cloudIpAddress: (s) => s.foreignAddressId,
  cloudNetwork: (s) => s.foreignNetworkId,
  placementGroup: (s) => s.foreignPlacementGroupId,
  scheduleUuid: (s) => s.foreignScheduleId,
  cloudVolume: (s) => s.foreignVolumeId,
  sessionUuid: (s) => s.foreignSessionId,
  webhookUuid: (s) => s.foreignWebhookId,
  deliveryUuid: (s) => s.foreignDeliveryId,
};

interface Seeded {
  credentials: Record<CredentialType, string>;
  foreignInstanceId: string;
  foreignTaskId: string;
  foreignSshKeyId: string;
  foreignBackupId: string;
  foreignPolicyId: string;
  foreignSnapshotId: string;
  foreignAddressId: string;
  foreignNetworkId: string;
  foreignPlacementGroupId: string;
  foreignScheduleId: string;
  foreignVolumeId: string;
  foreignSessionId: string;
  foreignWebhookId: string;
  foreignDeliveryId: string;
}

const routes = await registeredRoutes(t.app);
let seeded: Seeded;
let digestBefore: Record<string, string>;

beforeAll(async () => {
  const db = t.db;
  const customer = await seed.user(db);
  const other = await seed.user(db);
  const admin = await seed.user(db, { admin: true });
  const location = await seed.location(db);
  const ownHypervisor = await seed.hypervisor(db, location.id);
  const otherHypervisor = await seed.hypervisor(db, location.id);
  const foreignInstance = await seed.instance(db, { userId: other.id, locationId: location.id });
  const foreignTaskId = await queueAgentTask(db, {
    hypervisorId: otherHypervisor.id,
    type: 'instance.power',
    params: { instance_id: foreignInstance.id, action: 'stop' },
    taskToken: new Uint8Array([1]),
    workflowId: `sweep-${randomUUID()}`,
    runId: randomUUID(),
    activityId: '1',
    attempt: 1,
    correlationId: null,
  });
  const foreignSshKey = await db.transaction().execute((trx) =>
    insertSshKeyWithin(
      trx,
      {
        userId: other.id,
        name: 'other',
        publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvaqAz7lrs5U0pWgB8PtJpJyD7yfgrTg5MhMsNRbnVU',
        fingerprint: 'SHA256:Vyqd6j2p0zoL30psoF20r5aloucBEAHHvJAoATPXVeM',
      },
      1,
    ),
  );
  const onForeign = { instanceId: foreignInstance.id, userId: other.id };
  const foreignBackup = await insertBackup(db, {
    id: randomUUID(),
    ...onForeign,
    name: 'other',
    policyId: null,
  });
  const foreignSnapshot = await insertSnapshot(db, { id: randomUUID(), ...onForeign, name: 'other' });
  const foreignPolicy = await insertPolicy(db, {
    id: randomUUID(),
    ...onForeign,
    name: 'other',
    cron: '0 3 * * *',
    intervalMinutes: null,
    keepLast: 7,
    keepDays: null,
    paused: true,
  });
  await seed.uniqueIpv4Pool(db, location.id);
  const foreignAddress = await allocateAddress(db, {
    locationId: location.id,
    family: 4,
    ...onForeign,
    role: 'primary',
  });
  const foreignSchedule = await db.transaction().execute((trx) =>
    insertScheduledActionWithin(
      trx,
      {
        id: randomUUID(),
        instanceId: onForeign.instanceId,
        userId: other.id,
        action: 'stop',
        cron: '0 3 * * *',
        runAt: null,
      },
      1,
    ),
  );
  const foreignNetwork = await db.transaction().execute(async (trx) => {
    const network = { userId: other.id, locationId: location.id, name: 'other', cidr: '10.9.0.0/24' };
    const created = await insertPrivateNetworkWithin(trx, network, 1);
    if (created.refused) throw new Error('the foreign network was not created');
    return created;
  });
  const foreignVolumeId = randomUUID();
  await db.transaction().execute(async (trx) => {
    const volume = {
      id: foreignVolumeId,
      userId: other.id,
      locationId: location.id,
      name: 'other',
      backend: 'local',
      sizeMb: 2048,
    };
    if (!(await insertVolumeWithin(trx, volume, 1))) throw new Error('the foreign volume was not created');
  });
  const issue = async (type: 'agent' | 'enrollment') =>
    (
      await createCredential(db, {
        type,
        hypervisorId: ownHypervisor.id,
        expiresAt: type === 'enrollment' ? new Date(Date.now() + 3_600_000) : null,
      })
    ).token;
  const foreignSessionId = randomUUID();
  await insertConsoleSession(db, {
    id: foreignSessionId,
    instanceId: foreignInstance.id,
    userId: other.id,
    kind: 'serial',
    connectTokenHash: randomUUID(),
    connectTtlMs: 60_000,
    sessionTtlMs: 60_000,
  });
  const foreignWebhook = await db.transaction().execute((trx) =>
    insertEndpointWithin(
      trx,
      {
        owner: { userId: other.id },
        url: 'https://hooks.example.com/other',
        description: '',
        eventTypes: ['instance.created'],
        enabled: true,
        secretSealed: 'sealed:v1:not-opened-here',
        apiVersion: CURRENT_API_VERSION,
      },
      1,
    ),
  );
  // The foreign instance's creation, as the relay would fan it out to the foreign endpoint.
  const foreignEvents = (await listEventsOfResource(db, foreignInstance.id)).map((e) => e.id);
  await db.transaction().execute((trx) => insertDeliveriesOf(trx, foreignEvents));
  const foreignDelivery = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', foreignWebhook!.id)
    .executeTakeFirstOrThrow();
  seeded = {
    credentials: {
      client: await seed.key(db, customer.id, 'client'),
      application: await seed.key(db, admin.id, 'application'),
      agent: await issue('agent'),
      console_gateway: await seed.gatewayCredential(db),
      enrollment: await issue('enrollment'),
    },
    foreignInstanceId: foreignInstance.id,
    foreignTaskId,
    foreignSshKeyId: foreignSshKey!.id,
    foreignBackupId: foreignBackup.id,
    foreignPolicyId: foreignPolicy.id,
    foreignSnapshotId: foreignSnapshot.id,
    foreignAddressId: foreignAddress!.id,
    foreignNetworkId: foreignNetwork.id,
    foreignPlacementGroupId: await insertPlacementGroup(db, {
      userId: other.id,
      locationId: location.id,
      name: 'other',
      policy: 'spread',
    }),
    foreignScheduleId: foreignSchedule!.id,
    foreignVolumeId,
    foreignSessionId,
    foreignWebhookId: foreignWebhook!.id,
    foreignDeliveryId: foreignDelivery.id,
  };
  digestBefore = await tableDigest(db);
});

afterAll(async () => {
  await t.close();
  await database.drop();
});

function send(route: Route, path: string, token?: string) {
  const hasBody = route.body !== undefined;
  return t.app.request(path, {
    method: route.method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
    },
    body: hasBody ? JSON.stringify(route.body) : undefined,
  });
}

async function answer(res: Response) {
  const body: Body = await res.json().catch(() => undefined);
  return { status: res.status, code: body?.errors?.[0]?.code };
}

describe('every registered route', () => {
  it('was found', () => {
    expect(routes.length).toBeGreaterThan(Object.keys(PUBLIC_ROUTES).length);
    for (const key of Object.keys(PUBLIC_ROUTES)) {
      expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(key);
    }
  });

  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (key in PUBLIC_ROUTES || key in PAGE_ROUTES) continue;

    describe(key, () => {
      const api = apiOf(route.path);
      it('belongs to an API that takes a credential, or is declared public', () => {
        expect(
          api?.base,
          `${key} is under no API; declare it in PUBLIC_ROUTES if it is public`,
        ).toBeDefined();
      });
      if (!api) return;
      const unknownIds = () => pathWith(route, () => randomUUID());

      it('refuses a request without a credential: 401 SVC-AUTH-401', async () => {
        const res = await send(route, unknownIds());
        expect(await answer(res)).toEqual({ status: 401, code: 'SVC-AUTH-401' });
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      });

      it('refuses an unknown credential of its own type: 401 SVC-AUTH-401', async () => {
        const res = await send(route, unknownIds(), `${CREDENTIAL_PREFIXES[api.takes]}${randomUUID()}`);
        expect(await answer(res)).toEqual({ status: 401, code: 'SVC-AUTH-401' });
      });

      for (const type of CREDENTIAL_TYPES.filter((c) => c !== api.takes)) {
        it(`refuses a valid ${type} credential: 403 SVC-AUTH-403`, async () => {
          const res = await send(route, unknownIds(), seeded.credentials[type]);
          expect(await answer(res)).toEqual({ status: 403, code: 'SVC-AUTH-403' });
        });
      }

      if (route.params.length === 0) return;

      it('answers an unknown id with 404 SVC-RES-404', async () => {
        const res = await send(route, unknownIds(), seeded.credentials[api.takes]);
        expect(await answer(res)).toEqual({ status: 404, code: 'SVC-RES-404' });
      });

      it('answers a malformed id with 404 SVC-RES-404', async () => {
        const res = await send(
          route,
          pathWith(route, () => 'not-a-uuid'),
          seeded.credentials[api.takes],
        );
        expect(await answer(res)).toEqual({ status: 404, code: 'SVC-RES-404' });
      });

      if (!api.tenant) return;

      it(`answers another ${api.tenant}'s id with 404 SVC-RES-404`, async () => {
        for (const param of route.params) {
          expect(FOREIGN[param], `declare in FOREIGN how to make another tenant's :${param}`).toBeDefined();
        }
        const res = await send(
          route,
          pathWith(route, (param) => FOREIGN[param]!(seeded)),
          seeded.credentials[api.takes],
        );
        expect(await answer(res)).toEqual({ status: 404, code: 'SVC-RES-404' });
      });
    });
  }
});

describe('after the sweep of the credentialed routes', () => {
  // Before the public routes: a refused enrollment is counted against its address, by design.
  it('nothing in the database changed', async () => {
    expect(await tableDigest(t.db)).toEqual(digestBefore);
  });
});

describe('admin pages', () => {
  it('are all declared', () => {
    const pages = routes.filter((r) => !r.documented && r.path.startsWith('/admin/cloudsvc/'));
    expect(pages.length).toBeGreaterThan(0);
    for (const { method, path } of pages)
      expect(PAGE_ROUTES, `declare ${method} ${path} in PAGE_ROUTES`).toHaveProperty([`${method} ${path}`]);
  });

  for (const [key, page] of Object.entries(PAGE_ROUTES)) {
    const method = key.split(' ')[0]!;
    if (page.public) {
      it(`${key} answers 200 without a session, with or without any credential`, async () => {
        for (const token of [undefined, ...Object.values(seeded.credentials)]) {
          const res = await t.app.request(page.path, {
            headers: { Accept: 'text/html', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          });
          expect(res.status).toBe(200);
        }
      });
      continue;
    }
    it(`${key} opens nothing without a session, whatever credential it carries`, async () => {
      for (const token of [undefined, ...Object.values(seeded.credentials)]) {
        const res = await t.app.request(page.path, {
          method,
          headers: {
            Accept: 'text/html',
            'Content-Type': 'application/x-www-form-urlencoded',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          body: method === 'POST' ? `key=${token ?? ''}&csrf=x` : undefined,
        });
        if (key === 'POST /admin/cloudsvc/login') expect(res.status, token).toBe(403);
        else {
          expect(res.status, token).toBe(303);
          expect(res.headers.get('location')).toMatch(/^\/admin\/cloudsvc\/login\?next=/);
        }
        expect(
          res.headers.getSetCookie().some((c) => c.startsWith('cloudsvc_admin_session=')),
          token,
        ).toBe(false);
      }
    });
  }
});

describe('public routes', () => {
  for (const [key, path] of Object.entries(PUBLIC_ROUTES)) {
    if (key.startsWith('POST ')) continue;
    it(`${key} answers 200 with or without any credential`, async () => {
      for (const token of [undefined, ...Object.values(seeded.credentials)]) {
        const res = await t.app.request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
        expect(res.status).toBe(200);
      }
    });
  }

  it('enroll refuses a credential of any other type in place of its token: 401 SVC-ENROLL-401', async () => {
    for (const type of CREDENTIAL_TYPES.filter((c) => c !== 'enrollment')) {
      const res = await t.app.request(PUBLIC_ROUTES['POST /api/cloudsvc/agent/enroll']!, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: seeded.credentials[type], agent_version: '1.0.0' }),
      });
      expect(await answer(res), type).toEqual({ status: 401, code: 'SVC-ENROLL-401' });
    }
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lockUserQuotas } from '../../db/repositories/accounts/user-quotas.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import type { Reply } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * Per-user quotas (docs/api.md "Quotas"): set by an administrator, read by the customer, and held
 * by every order that adds to what the customer has, on real PostgreSQL, Temporal and in-process
 * agents. Each customer here is new, so its usage is what the test made.
 */
const database = await isolatedDatabase();
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ DATABASE_URL: database.url });
});
// What a test set going (a provisioning) ends before the next one takes a digest.
afterEach(() =>
  eventually(
    async () =>
      (await t.env.db
        .selectFrom('instances')
        .select('id')
        .where('operation_id', 'is not', null)
        .executeTakeFirst()) === undefined,
    30_000,
    'every instance to settle',
  ),
);
afterAll(async () => {
  await t.close();
  await database.drop();
});

type Limits = Record<'instances' | 'cpu_cores' | 'memory_mb' | 'disk_mb' | 'volumes' | 'ips', number | null>;

const UNLIMITED: Limits = {
  instances: null,
  cpu_cores: null,
  memory_mb: null,
  disk_mb: null,
  volumes: null,
  ips: null,
};

/** A new customer with a client key, and their requests to the Client API. */
async function customer() {
  const user = await seed.user(t.env.db);
  const key = await seed.key(t.env.db, user.id, 'client');
  const api = (method: string, path: string, body?: unknown) =>
    t.env.call(key, method, `/api/client/cloud${path}`, body);
  return { id: user.id, api };
}

const quotasPath = (userId: string) => `/api/application/cloudsvc/users/${userId}/quotas`;
const setQuotas = async (userId: string, limits: Partial<Limits>) => {
  const res = await t.env.call(t.env.admin, 'PUT', quotasPath(userId), { ...UNLIMITED, ...limits });
  expect(res.status).toBe(200);
  return res.body;
};

const order = (hostname = `q-${randomUUID().slice(0, 8)}.example.com`) => ({
  hostname,
  plan: t.catalog.plan.code,
  image: t.catalog.image.code,
  location: t.location.code,
});

/** Waits for an instance's provisioning to end, so the database holds still under a digest. */
const provisioned = (instanceId: string) =>
  eventually(
    async () => {
      const row = await t.env.db
        .selectFrom('instances')
        .select(['status', 'operation_id'])
        .where('id', '=', instanceId)
        .executeTakeFirstOrThrow();
      return row.operation_id === null && row.status === 'running';
    },
    20_000,
    `instance ${instanceId} to be provisioned`,
  );

const expectQuotaRefusal = (res: Reply, meta: Record<string, unknown>) => {
  expect(res.status).toBe(409);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0]).toMatchObject({ code: 'QUOTA_EXCEEDED', status: 409, meta });
  if (meta.limit !== undefined) expect(res.body.errors[0].detail).toContain(`at most ${meta.limit} `);
};

describe('quotas through the Application API', () => {
  it('start unlimited, are set all at once, read back the same, and a second PUT changes nothing more', async () => {
    const { id } = await customer();
    const fresh = await t.env.call(t.env.admin, 'GET', quotasPath(id));
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({
      object: 'quotas',
      attributes: {
        limits: UNLIMITED,
        usage: { instances: 0, cpu_cores: 0, memory_mb: 0, disk_mb: 0, volumes: 0, ips: 0 },
        updated_at: null,
      },
    });
    const limits = { ...UNLIMITED, instances: 2, cpu_cores: 4, disk_mb: 0 };
    const set = await setQuotas(id, limits);
    expect(set.attributes.limits).toEqual(limits);
    expect(set.attributes.updated_at).not.toBeNull();
    const again = await setQuotas(id, limits);
    expect(again.attributes.limits).toEqual(limits);
    expect((await t.env.call(t.env.admin, 'GET', quotasPath(id))).body).toEqual(again);
    // Back to unlimited with nulls.
    expect((await setQuotas(id, {})).attributes.limits).toEqual(UNLIMITED);
    const logged = await t.env.db
      .selectFrom('activity_log')
      .select(['actor', 'event', 'detail'])
      .where('user_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(logged.map((l) => [l.actor, l.event])).toEqual(
      Array(3).fill([`admin:${t.env.admin.id}`, 'user.quotas_set']),
    );
    expect(logged[0]!.detail).toEqual({ from: UNLIMITED, to: limits });
  });

  it('refuses a negative or fractional limit, a missing or unknown field, and an unknown user, changing nothing', async () => {
    const { id } = await customer();
    await setQuotas(id, { volumes: 3 });
    const before = await tableDigest(t.env.db);
    const put = (path: string, body: unknown) => t.env.call(t.env.admin, 'PUT', path, body);
    const negative = await put(quotasPath(id), { ...UNLIMITED, instances: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'instances' } });
    expect((await put(quotasPath(id), { ...UNLIMITED, memory_mb: 1.5 })).status).toBe(400);
    const { ips: _, ...missing } = UNLIMITED;
    const left = await put(quotasPath(id), missing);
    expect(left.status).toBe(400);
    expect(left.body.errors[0].source).toEqual({ field: 'ips' });
    expect((await put(quotasPath(id), { ...UNLIMITED, gpus: 1 })).status).toBe(400);
    const unknown = await put(quotasPath(randomUUID()), UNLIMITED);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('SVC-RES-404');
    expect(typeof unknown.body.support_id).toBe('string');
    expect((await t.env.call(t.env.admin, 'GET', quotasPath(randomUUID()))).status).toBe(404);
    expect((await t.env.call(t.env.admin, 'GET', quotasPath('not-a-uuid'))).status).toBe(404);
    expect(await tableDigest(t.env.db)).toEqual(before);
  });

  it('is the administrators’: a client key is refused', async () => {
    const { id } = await customer();
    expect((await t.env.call(t.env.client, 'GET', quotasPath(id))).status).toBe(403);
    expect((await t.env.call(t.env.client, 'PUT', quotasPath(id), UNLIMITED)).status).toBe(403);
  });
});

describe('quotas the customer reads', () => {
  it('answers the caller’s own limits and what they hold, and no one else’s', async () => {
    const me = await customer();
    const other = await customer();
    await setQuotas(me.id, { volumes: 5, disk_mb: 100_000 });
    const volume = await me.api('POST', '/volumes', {
      name: 'data',
      location: t.location.code,
      size_mb: 2048,
    });
    expect(volume.status).toBe(201);
    const mine = await me.api('GET', '/account/quotas');
    expect(mine.status).toBe(200);
    expect(mine.body.attributes).toMatchObject({
      limits: { ...UNLIMITED, volumes: 5, disk_mb: 100_000 },
      usage: { instances: 0, volumes: 1, disk_mb: 2048, ips: 0 },
    });
    const theirs = await other.api('GET', '/account/quotas');
    expect(theirs.body.attributes).toMatchObject({ limits: UNLIMITED, usage: { volumes: 0 } });
    expect((await t.env.call(t.env.admin, 'GET', '/api/client/cloud/account/quotas')).status).toBe(403);
  });
});

describe('an instance create at the limit', () => {
  it('is refused naming the resource, limit and usage, with nothing written; the one before it was taken', async () => {
    const me = await customer();
    await setQuotas(me.id, { instances: 1 });
    const first = await me.api('POST', '/', order());
    expect(first.status).toBe(202);
    await provisioned(first.body.attributes.uuid);
    const before = await tableDigest(t.env.db);
    const refused = await me.api('POST', '/', order());
    expectQuotaRefusal(refused, { resource: 'instances', limit: 1, usage: 1, requested: 1 });
    // Asked again: the same refusal, still nothing written.
    expectQuotaRefusal(await me.api('POST', '/', order()), { resource: 'instances', usage: 1 });
    expect(await tableDigest(t.env.db)).toEqual(before);
    const { usage } = (await me.api('GET', '/account/quotas')).body.attributes;
    expect(usage).toMatchObject({ instances: 1, cpu_cores: 1, memory_mb: 1024, disk_mb: 20480, ips: 1 });
  });

  it('counts vCPUs: a plan’s cores past the limit are refused', async () => {
    const me = await customer();
    await setQuotas(me.id, { cpu_cores: 1, memory_mb: 4096 });
    expect((await me.api('POST', '/', order())).status).toBe(202);
    expectQuotaRefusal(await me.api('POST', '/', order()), {
      resource: 'cpu_cores',
      limit: 1,
      usage: 1,
      requested: 1,
    });
  });

  it('takes one of two orders sent at once at the limit and refuses the other', async () => {
    const me = await customer();
    await setQuotas(me.id, { instances: 1 });
    const answers = await Promise.all([me.api('POST', '/', order()), me.api('POST', '/', order())]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.errors[0].code).toBe('QUOTA_EXCEEDED');
    const held = await t.env.db.selectFrom('instances').select('id').where('user_id', '=', me.id).execute();
    expect(held).toHaveLength(1);
  });

  it('decides two orders that both passed the early check by the count under the user’s lock', async () => {
    const me = await customer();
    await setQuotas(me.id, { instances: 1 });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The user's row held, so both orders pass the early check and wait in their transactions.
    const held = t.env.db.transaction().execute(async (trx) => {
      await lockUserQuotas(trx, me.id);
      await released;
    });
    const orders = [me.api('POST', '/', order()), me.api('POST', '/', order())];
    await eventually(
      async () => {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock'`.execute(t.env.db);
        return rows[0]!.waiting >= 2;
      },
      20_000,
      'both orders to wait for the user’s row',
    );
    release();
    await held;
    const answers = await Promise.all(orders);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.errors[0]).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      meta: { resource: 'instances', limit: 1, usage: 1, requested: 1 },
    });
    const rows = await t.env.db.selectFrom('instances').select('id').where('user_id', '=', me.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('holds an administrator’s order for the user too', async () => {
    const me = await customer();
    await setQuotas(me.id, { instances: 0 });
    const res = await t.env.call(t.env.admin, 'POST', '/api/application/cloudsvc/instances', {
      ...order(),
      user: me.id,
    });
    expectQuotaRefusal(res, { resource: 'instances', limit: 0, usage: 0, requested: 1 });
  });
});

describe('a restore as a new instance at the limit', () => {
  it('is refused, and the instance restored from is untouched', async () => {
    const { id } = await t.instance();
    const backup = await t.backup(id);
    const held = (await t.api('GET', '/account/quotas')).body.attributes.usage.instances;
    await setQuotas(t.env.client.id, { instances: held });
    try {
      const before = await tableDigest(t.env.db);
      const path = `/${id}/backups/${backup.uuid}/restore-new`;
      const refused = await t.api('POST', path, { hostname: 'copy.example.com' });
      expectQuotaRefusal(refused, { resource: 'instances', limit: held, usage: held, requested: 1 });
      expectQuotaRefusal(await t.api('POST', path, { hostname: 'copy.example.com' }), {
        resource: 'instances',
      });
      expect(await tableDigest(t.env.db)).toEqual(before);
      await setQuotas(t.env.client.id, { instances: held + 1 });
      expect((await t.api('POST', path, { hostname: 'copy.example.com' })).status).toBe(202);
    } finally {
      await setQuotas(t.env.client.id, {});
    }
  });
});

describe('a volume create at the limit', () => {
  const volume = (name: string, size_mb = 1024) => ({ name, location: t.location.code, size_mb });

  it('is refused by count and by disk (root disks and volumes together), with nothing written', async () => {
    const me = await customer();
    await setQuotas(me.id, { volumes: 1 });
    expect((await me.api('POST', '/volumes', volume('a'))).status).toBe(201);
    const before = await tableDigest(t.env.db);
    expectQuotaRefusal(await me.api('POST', '/volumes', volume('b')), {
      resource: 'volumes',
      limit: 1,
      usage: 1,
      requested: 1,
    });
    expectQuotaRefusal(await me.api('POST', '/volumes', volume('b')), { resource: 'volumes' });
    expect(await tableDigest(t.env.db)).toEqual(before);

    // An instance's root disk (20480 MB) and a volume share one disk quota.
    await setQuotas(me.id, { disk_mb: 20480 + 1024 + 1024 });
    expect((await me.api('POST', '/', order())).status).toBe(202);
    expectQuotaRefusal(await me.api('POST', '/volumes', volume('c', 2048)), {
      resource: 'disk_mb',
      limit: 22_528,
      usage: 21_504,
      requested: 2048,
    });
    expect((await me.api('POST', '/volumes', volume('c'))).status).toBe(201);
  });

  it('refuses a grow past `disk_mb` with nothing written, and takes one within it', async () => {
    const me = await customer();
    await setQuotas(me.id, { disk_mb: 3072 });
    const made = await me.api('POST', '/volumes', volume('g'));
    expect(made.status).toBe(201);
    const grow = (size_mb: number) =>
      me.api('POST', `/volumes/${made.body.attributes.uuid}/resize`, { size_mb });
    const before = await tableDigest(t.env.db);
    for (const _ of [1, 2])
      expectQuotaRefusal(await grow(4096), {
        resource: 'disk_mb',
        limit: 3072,
        usage: 1024,
        requested: 3072,
      });
    expect(await tableDigest(t.env.db)).toEqual(before);
    expect((await grow(3072)).status).toBe(200);
    const { usage } = (await me.api('GET', '/account/quotas')).body.attributes;
    expect(usage).toMatchObject({ volumes: 1, disk_mb: 3072 });
  });

  it('takes one of two sent at once at the limit', async () => {
    const me = await customer();
    await setQuotas(me.id, { volumes: 1 });
    const answers = await Promise.all([
      me.api('POST', '/volumes', volume('x')),
      me.api('POST', '/volumes', volume('y')),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const held = await t.env.db.selectFrom('volumes').select('id').where('user_id', '=', me.id).execute();
    expect(held).toHaveLength(1);
  });
});

describe('addresses at the limit', () => {
  it('refuses an extra address past `ips` with nothing written, and takes one of two sent at once', async () => {
    const [first, second] = [await t.instance(), await t.instance()];
    // The client holds the two instances' primary addresses and whatever earlier tests left.
    const { usage } = (await t.api('GET', '/account/quotas')).body.attributes;
    await setQuotas(t.env.client.id, { ips: usage.ips + 1 });
    try {
      const answers = await Promise.all([
        t.api('POST', `/${first.id}/network/ips`, { family: 4 }),
        t.api('POST', `/${second.id}/network/ips`, { family: 4 }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
      expect(answers.find((a) => a.status === 409)!.body.errors[0]).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        // The one that waited counted what the other took.
        meta: { resource: 'ips', limit: usage.ips + 1, usage: usage.ips + 1, requested: 1 },
      });
      await Promise.all([t.settled(first.id), t.settled(second.id)]);
      const before = await tableDigest(t.env.db);
      for (const _ of [1, 2])
        expectQuotaRefusal(await t.api('POST', `/${first.id}/network/ips`, { family: 4 }), {
          resource: 'ips',
          limit: usage.ips + 1,
          usage: usage.ips + 1,
          requested: 1,
        });
      // The agents' metric samples may land between the two digests: the request's writes are the rest.
      const { instance_bandwidth, instance_metrics, instance_metric_rollups, usage_traffic, ...after } =
        await tableDigest(t.env.db);
      const {
        instance_bandwidth: b,
        instance_metrics: m,
        instance_metric_rollups: r,
        usage_traffic: u,
        ...was
      } = before;
      expect(after).toEqual(was);
    } finally {
      await setQuotas(t.env.client.id, {});
    }
  });

  it('holds a floating IP an administrator gives the customer', async () => {
    const me = await customer();
    await setQuotas(me.id, { ips: 1 });
    const give = () =>
      t.env.call(t.env.admin, 'POST', '/api/application/cloudsvc/floating-ips', {
        user: me.id,
        location: t.location.code,
      });
    expect((await give()).status).toBe(201);
    const before = await tableDigest(t.env.db);
    expectQuotaRefusal(await give(), { resource: 'ips', limit: 1, usage: 1, requested: 1 });
    expect(await tableDigest(t.env.db)).toEqual(before);
  });
});

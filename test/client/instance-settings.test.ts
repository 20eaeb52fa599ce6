import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginOperation } from '../../db/repositories/instances/instance-operations.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { type Body, bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Party, type Stack, startStack } from '../support/stack.js';

let t: Stack;
let owner: Party;
let stranger: Party;
let locationId: string;

beforeAll(async () => {
  t = await startStack();
  ({ client: owner, stranger, locationId } = t);
});
afterAll(() => t.close());

const SETTINGS = {
  rename: { field: 'name', good: 'db-primary', column: 'name', before: 'web-1' },
  hostname: { field: 'hostname', good: 'db-1.example.com', column: 'hostname', before: 'web-1.example.test' },
  timezone: { field: 'timezone', good: 'Europe/Berlin', column: 'timezone', before: 'UTC' },
} as const;
type Setting = keyof typeof SETTINGS;

const patch = (
  id: string,
  setting: Setting,
  body: unknown,
  key = owner.key,
  headers: Record<string, string> = {},
) =>
  t.app.request(`/api/client/cloud/${id}/settings/${setting}`, {
    method: 'PATCH',
    headers: { ...jsonHeaders(key), ...headers },
    body: JSON.stringify(body),
  });

const newInstance = () => seed.instance(t.db, { userId: owner.id, locationId });

const activityOf = (instanceId: string) =>
  t.db
    .selectFrom('activity_log')
    .select(['actor', 'event', 'detail', 'correlation_id', 'user_id'])
    .where('instance_id', '=', instanceId)
    .orderBy('id')
    .execute();

async function startOperation(instanceId: string) {
  await t.db.transaction().execute((trx) =>
    beginOperation(trx, {
      operationId: randomUUID(),
      instanceId,
      kind: 'stop',
      workflowId: `test-${randomUUID()}`,
      workflowType: 'powerInstance',
      workflowInput: {},
      actor: 'test',
      byCustomer: false,
      correlationId: null,
    }),
  );
}

async function leaseForMigration(instanceId: string, expiresInMs: number) {
  await t.db
    .insertInto('move_leases')
    .values({
      instance_id: instanceId,
      move_id: randomUUID(),
      holder: 'test',
      expires_at: new Date(Date.now() + expiresInMs),
    })
    .execute();
}

for (const [setting, spec] of Object.entries(SETTINGS) as [Setting, (typeof SETTINGS)[Setting]][]) {
  describe(`PATCH /{cloudInstance}/settings/${setting}`, () => {
    it('changes the panel record and answers 200 with the instance; the same change twice answers the same', async () => {
      const instance = await newInstance();
      const requestId = `req-${randomUUID()}`;
      const res = await patch(instance.id, setting, { [spec.field]: spec.good }, owner.key, {
        'X-Request-Id': requestId,
      });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.object).toBe('cloud_instance');
      expect(body.attributes).toMatchObject({
        uuid: instance.id,
        [spec.column]: spec.good,
        status: 'running',
      });
      expect(Date.parse(body.attributes.updated_at)).toBeGreaterThanOrEqual(instance.updated_at.getTime());
      expect((await findInstance(t.db, instance.id))?.[spec.column]).toBe(spec.good);
      expect(await activityOf(instance.id)).toEqual([
        {
          actor: `user:${owner.id}`,
          user_id: owner.id,
          event: `instance.settings.${setting}`,
          detail: { from: spec.before, to: spec.good },
          correlation_id: requestId,
        },
      ]);

      const again = await patch(instance.id, setting, { [spec.field]: spec.good });
      expect(again.status).toBe(200);
      expect((await json(again)).attributes[spec.column]).toBe(spec.good);
      expect(await activityOf(instance.id)).toHaveLength(2);
    });

    it("answers another tenant's instance exactly like an unknown one, and leaves it alone", async () => {
      const instance = await newInstance();
      const foreign = await patch(instance.id, setting, { [spec.field]: spec.good }, stranger.key);
      const unknown = await patch(randomUUID(), setting, { [spec.field]: spec.good }, stranger.key);
      const malformed = await patch('not-a-uuid', setting, { [spec.field]: spec.good }, stranger.key);
      expect([foreign.status, unknown.status, malformed.status]).toEqual([404, 404, 404]);
      expect((await json(foreign)).errors).toEqual((await json(unknown)).errors);
      expect((await findInstance(t.db, instance.id))?.[spec.column]).toBe(spec.before);
      expect(await activityOf(instance.id)).toEqual([]);
    });

    it('refuses it while an operation runs on the instance: 409 SVC-OP-409, nothing changed', async () => {
      const instance = await newInstance();
      await startOperation(instance.id);
      const res = await patch(instance.id, setting, { [spec.field]: spec.good });
      expect(res.status).toBe(409);
      expect((await json(res)).errors[0].code).toBe('SVC-OP-409');
      expect((await findInstance(t.db, instance.id))?.[spec.column]).toBe(spec.before);
      expect((await activityOf(instance.id)).map((a) => a.event)).not.toContain(
        `instance.settings.${setting}`,
      );
    });

    it('refuses it under a live migration lease: 409 INSTANCE_MIGRATING; an expired lease does not', async () => {
      const instance = await newInstance();
      await leaseForMigration(instance.id, 60_000);
      const res = await patch(instance.id, setting, { [spec.field]: spec.good });
      expect(res.status).toBe(409);
      expect((await json(res)).errors[0].code).toBe('INSTANCE_MIGRATING');
      expect((await findInstance(t.db, instance.id))?.[spec.column]).toBe(spec.before);

      const expired = await newInstance();
      await leaseForMigration(expired.id, -1_000);
      expect((await patch(expired.id, setting, { [spec.field]: spec.good })).status).toBe(200);
    });

    it('of two changes at once, both are applied one after the other', async () => {
      const instance = await newInstance();
      const values = {
        rename: ['first', 'second'],
        hostname: ['first.example.com', 'second.example.com'],
        timezone: ['Asia/Tokyo', 'America/New_York'],
      }[setting];
      const responses = await Promise.all(
        values.map((value) => patch(instance.id, setting, { [spec.field]: value })),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      const final = (await findInstance(t.db, instance.id))?.[spec.column];
      expect(values).toContain(final);
      // Serialized by the row lock: the second saw the first's value as its `from`.
      const entries = await activityOf(instance.id);
      expect(entries.map((e) => e.detail)).toEqual([
        { from: spec.before, to: expect.any(String) },
        { from: (entries[0]!.detail as Body).to, to: final },
      ]);
    });

    it('refuses a missing or mistyped field with 400 naming it', async () => {
      const instance = await newInstance();
      for (const body of [{}, { [spec.field]: 42 }, { [spec.field]: null }]) {
        const res = await patch(instance.id, setting, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await json(res)).errors[0]).toMatchObject({
          code: 'SVC-REQ-400',
          source: { field: spec.field },
        });
      }
      expect(await findInstance(t.db, instance.id)).toMatchObject({ [spec.column]: spec.before });
    });
  });
}

const BAD_VALUES: Record<Setting, unknown[]> = {
  rename: ['', '   ', 'x'.repeat(101), 'line\nbreak', 'nul\u0000'],
  hostname: [
    '',
    'a'.repeat(64),
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`,
    '-web.example.com',
    'web-.example.com',
    'web..example.com',
    'web.example.com.',
    'web_1.example.com',
    'wéb.example.com',
    '10.0.0.1',
    'web 1',
  ],
  timezone: ['', 'Mars/Olympus', 'europe/berlin', 'Asia/KOLKATA', 'GMT+2', 'x'.repeat(65)],
};

describe('bad values', () => {
  for (const [setting, values] of Object.entries(BAD_VALUES) as [Setting, unknown[]][]) {
    it(`${setting}: each refused with 400 naming ${SETTINGS[setting].field}, nothing changed`, async () => {
      const instance = await newInstance();
      for (const value of values) {
        const res = await patch(instance.id, setting, { [SETTINGS[setting].field]: value });
        expect(res.status, JSON.stringify(value)).toBe(400);
        const body = await json(res);
        expect(body.errors.map((e: Body) => [e.code, e.source.field])).toEqual([
          ['SVC-REQ-400', SETTINGS[setting].field],
        ]);
      }
      const after = await findInstance(t.db, instance.id);
      expect(after).toEqual(instance);
      expect(await activityOf(instance.id)).toEqual([]);
    });
  }

  it('accepts the edges: a 253-character hostname of 63-character labels, one label, UTC, current zone names', async () => {
    const instance = await newInstance();
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(longest).toHaveLength(253);
    for (const value of [longest, 'web1', 'xn--bcher-kva.example', '1web.example.com']) {
      expect((await patch(instance.id, 'hostname', { hostname: value })).status, value).toBe(200);
    }
    // Asia/Kolkata and Europe/Kyiv: current IANA names that Node's CLDR list still gives under older ones.
    for (const value of [
      'UTC',
      'America/Argentina/Buenos_Aires',
      'Asia/Kolkata',
      'Europe/Kyiv',
      'Asia/Calcutta',
    ]) {
      expect((await patch(instance.id, 'timezone', { timezone: value })).status, value).toBe(200);
    }
    const renamed = await json(await patch(instance.id, 'rename', { name: '  spaced name  ' }));
    expect(renamed.attributes.name).toBe('spaced name');
  });
});

describe('a settings change against an operation beginning at the same moment', () => {
  it('either lands before the operation or is refused; never written under it', async () => {
    for (let round = 0; round < 5; round++) {
      const instance = await newInstance();
      const [res] = await Promise.all([
        patch(instance.id, 'hostname', { hostname: `race-${round}.example.com` }),
        startOperation(instance.id),
      ]);
      const after = await findInstance(t.db, instance.id);
      expect(after?.status).toBe('stopping');
      if (res.status === 200) {
        expect(after?.hostname).toBe(`race-${round}.example.com`);
      } else {
        expect(res.status).toBe(409);
        expect((await json(res)).errors[0].code).toBe('SVC-OP-409');
        expect(after?.hostname).toBe('web-1.example.test');
      }
    }
  });
});

describe('the OpenAPI description', () => {
  it('documents that hostname and timezone reach the guest at the next rebuild, and that rename does not touch it', async () => {
    const doc = await json(await t.app.request('/openapi/client.json'));
    const description = (path: string) => doc.paths[path].patch.description as string;
    expect(description('/{cloudInstance}/settings/hostname')).toMatch(/next rebuild/);
    expect(description('/{cloudInstance}/settings/timezone')).toMatch(/next rebuild/);
    expect(description('/{cloudInstance}/settings/rename')).toMatch(/guest is not touched/);
    expect(doc.paths['/{cloudInstance}/settings/hostname'].patch.responses['409']).toBeDefined();
  });
});

it('GET of an unknown instance still answers 404 after the account-level routes were added', async () => {
  const res = await t.app.request(`/api/client/cloud/${randomUUID()}`, { headers: bearer(owner.key) });
  expect(res.status).toBe(404);
});

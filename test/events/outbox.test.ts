import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { listEventsOfResource, pruneRelayedEvents } from '../../db/repositories/events/outbox.js';
import { settleOperation } from '../../db/repositories/instances/instance-operation-ends.js';
import { beginOperation } from '../../db/repositories/instances/instance-operations.js';
import { clearSuspension, markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { INSTANCE_STATUS_EVENTS } from '../../domain/events/catalogue.js';
import { EVENT_SCHEMAS, renderEvent } from '../../wire/events.js';
import { serializeInstance } from '../../wire/serializers/instances/instance.js';
import { seed } from '../support/seed.js';

/** docs/events.md "Recorded with the change": an event commits with its change, or not at all. */
const database = createDatabase({ url: inject('databaseUrl'), poolSize: 4, namedStatements: false });
const db = database.db;
afterAll(() => database.close());

let userId: string;
let locationId: string;
beforeAll(async () => {
  userId = (await seed.user(db)).id;
  locationId = (await seed.location(db)).id;
});

const typesOf = async (resourceId: string) => (await listEventsOfResource(db, resourceId)).map((e) => e.type);

class RolledBack extends Error {}

/** Begins a stop on `instanceId` (running → stopping) and returns the operation's id. */
async function beginStop(instanceId: string) {
  const operationId = randomUUID();
  const begun = await db.transaction().execute((trx) =>
    beginOperation(trx, {
      operationId,
      instanceId,
      kind: 'stop',
      workflowId: `test-stop-${operationId}`,
      workflowType: 'powerInstance',
      workflowInput: { secret: 'sealed:v1:not-for-the-outbox' },
      actor: 'system:test',
      byCustomer: false,
      correlationId: null,
    }),
  );
  expect(begun.begun).toBe(true);
  return operationId;
}

describe('the outbox', () => {
  it('records one instance.created with the instance as the API shows it, and no password', async () => {
    const instance = await seed.instance(db, { userId, locationId, status: 'provisioning' });
    const events = await listEventsOfResource(db, instance.id);
    expect(events.map((e) => e.type)).toEqual(['instance.created']);
    const [created] = events;
    expect(created!.user_id).toBe(userId);
    expect(JSON.stringify(created!.data)).not.toContain('password');
    const body = renderEvent(created!, CURRENT_API_VERSION);
    expect(EVENT_SCHEMAS['instance.created'].parse(body)).toEqual(body);
    expect(body.data.object).toEqual(serializeInstance((await findInstance(db, instance.id))!));
    expect(body).toMatchObject({
      id: created!.id,
      type: 'instance.created',
      version: 1,
      data: { previous_attributes: {} },
    });
  });

  it('records nothing for an insert that rolled back', async () => {
    const name = `rolled-back-${randomUUID()}`;
    await expect(
      db.transaction().execute(async (trx) => {
        await seed.instance(trx, { userId, locationId, name });
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from outbox_events where data->'object'->>'name' = ${name}`.execute(db);
    expect(rows[0]!.n).toBe(0);
  });

  it('records a settled stop once, with the status it replaced, and nothing for a settle that rolled back', async () => {
    const instance = await seed.instance(db, { userId, locationId, status: 'running' });
    const operationId = await beginStop(instance.id);
    const settle = () =>
      settleOperation(db, { operationId, state: 'succeeded', expectedStatus: 'stopping', status: 'stopped' });
    // The transitional status (stopping) is no news.
    expect(await typesOf(instance.id)).toEqual(['instance.created']);

    await expect(
      db.transaction().execute(async (trx) => {
        await settleOperation(trx, {
          operationId,
          state: 'succeeded',
          expectedStatus: 'stopping',
          status: 'stopped',
        });
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    expect(await typesOf(instance.id)).toEqual(['instance.created']);

    // Two settles at once: the compare-and-set lets one through, and one event is written.
    const settled = await Promise.all([settle(), settle()]);
    expect(settled.filter(Boolean)).toHaveLength(1);
    expect(await settle()).toBeUndefined();
    const events = await listEventsOfResource(db, instance.id);
    expect(events.map((e) => e.type)).toEqual(['instance.created', 'instance.stopped']);
    const body = renderEvent(events[1]!, CURRENT_API_VERSION);
    expect(EVENT_SCHEMAS['instance.stopped'].parse(body).data).toMatchObject({
      object: { object: 'cloud_instance', attributes: { uuid: instance.id, status: 'stopped' } },
      previous_attributes: { status: 'stopping' },
    });
  });

  it('records operation.failed with the task, never its workflow input, and instance.failed for `error`', async () => {
    const instance = await seed.instance(db, { userId, locationId, status: 'running' });
    const operationId = await beginStop(instance.id);
    await settleOperation(db, {
      operationId,
      state: 'failed',
      expectedStatus: 'stopping',
      status: 'error',
      outcome: { error: { code: 'AGENT_TIMEOUT', message: 'no answer' } },
    });
    const events = await listEventsOfResource(db, instance.id);
    expect(events.map((e) => e.type)).toEqual(['instance.created', 'instance.failed']);
    const [failed] = await listEventsOfResource(db, operationId);
    expect(failed?.type).toBe('operation.failed');
    expect(failed?.user_id).toBe(userId);
    expect(JSON.stringify(failed!.data)).not.toContain('sealed:');
    const body = EVENT_SCHEMAS['operation.failed'].parse(renderEvent(failed!, CURRENT_API_VERSION));
    expect(body.data).toMatchObject({
      object: { object: 'task', attributes: { uuid: operationId, operation: 'stop', state: 'failed' } },
      previous_attributes: { state: 'running' },
    });
  });

  it('records a suspension and its lifting, each once however often asked', async () => {
    const instance = await seed.instance(db, { userId, locationId, status: 'running' });
    expect(await Promise.all([markSuspended(db, instance.id), markSuspended(db, instance.id)])).toContain(
      false,
    );
    await clearSuspension(db, instance.id);
    await clearSuspension(db, instance.id);
    expect(await typesOf(instance.id)).toEqual([
      'instance.created',
      'instance.suspended',
      'instance.unsuspended',
    ]);
  });

  it('the trigger sends an event for exactly the statuses the catalogue names', async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_functiondef('outbox_instance_events'::regproc) as definition`.execute(db);
    const mapped = Object.fromEntries(
      [...rows[0]!.definition.matchAll(/when '([a-z_]+)' then '([a-z_.]+)'/g)].map((m) => [m[1], m[2]]),
    );
    expect(mapped).toEqual(INSTANCE_STATUS_EVENTS);
  });
});

describe('retention', () => {
  it('deletes events relayed past EVENT_RETENTION_DAYS, and none not yet relayed or relayed lately', async () => {
    const [old, recent, waiting] = await Promise.all(
      [1, 2, 3].map(() => seed.instance(db, { userId, locationId })),
    );
    const ageRelayed = (instanceId: string, days: number) =>
      db
        .updateTable('outbox_events')
        .set({ relayed_at: sql`now() - ${`${days} days`}::interval` })
        .where('resource_id', '=', instanceId)
        .execute();
    await ageRelayed(old!.id, 31);
    await ageRelayed(recent!.id, 29);
    expect(await pruneRelayedEvents(db, 30)).toBeGreaterThanOrEqual(1);
    expect(await typesOf(old!.id)).toEqual([]);
    expect(await typesOf(recent!.id)).toEqual(['instance.created']);
    expect(await typesOf(waiting!.id)).toEqual(['instance.created']);
    // Asked again, nothing of these is left to delete.
    await pruneRelayedEvents(db, 30);
    expect(await typesOf(recent!.id)).toEqual(['instance.created']);
  });
});

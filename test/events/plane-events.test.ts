import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import {
  findHypervisor,
  markSilentHypervisorsUnreachable,
} from '../../db/repositories/hypervisors/hypervisors.js';
import { moveEvacuationState } from '../../db/repositories/moves/evacuations.js';
import { recordMigrationState } from '../../db/repositories/moves/migration-states.js';
import { enrollAgent } from '../../services/agents/enroll.js';
import { acceptHeartbeat } from '../../services/agents/heartbeat.js';
import { relayEvents } from '../../services/webhooks/relay.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import {
  migrationEnd,
  migrationPair,
  requestedMigration,
  seedMigrationRecord,
} from '../support/migrations.js';
import { atOnce, eventsOf, expectNoSecret, rendered, rolledBack, typesOf } from '../support/outbox.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * docs/events.md: the plane's own events (migrations, evacuations, hypervisors), recorded by the
 * runs and services that make their changes, with no owner, in the stream of what they are about.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: {
      MIGRATION_SOURCE_RETENTION_MS: '300',
      EVACUATION_CHECK_EVERY_MS: '300',
      HYPERVISOR_UNREACHABLE_AFTER_MS: '600000',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.0/8',
    },
  });
});
afterAll(() => env.close());

const admin = (method: string, path: string, body?: unknown) =>
  env.call(env.admin, method, `/admin/cloudsvc${path}`, body);

/** Every event of the plane is recorded with no owner, in `stream`, and carries no secret. */
async function planeEvents(resourceId: string, stream: string) {
  const events = await eventsOf(env.db, resourceId);
  for (const event of events) {
    expect(event.user_id).toBeNull();
    expect(event.stream_id).toBe(stream);
    expectNoSecret(event);
  }
  return events;
}

// Real moves and drains on a busy machine take longer than the default minute.
const MOVES_MS = 240_000;

describe('migration events', () => {
  it(
    'records requested and completed in the instance’s stream, rendered as administrators see the migration; a second move of the instance too',
    async () => {
      const { source, target, instance } = await migrationPair(env);
      const there = await requestedMigration(env, instance.id, target.id);
      expect((await migrationEnd(env, there.workflow_id)).state).toBe('CLEANED_UP');
      const back = await requestedMigration(env, instance.id, source.id);
      expect((await migrationEnd(env, back.workflow_id)).state).toBe('CLEANED_UP');

      for (const move of [there, back]) {
        const events = await planeEvents(move.uuid, instance.id);
        expect(events.map((e) => e.type)).toEqual(['migration.requested', 'migration.completed']);
        const [requested, completed] = events.map(rendered);
        expect(requested!.data.object.attributes).toMatchObject({ uuid: move.uuid, state: 'REQUESTED' });
        expect(requested!.data.previous_attributes).toEqual({});
        const shown = completed!.data.object.attributes;
        expect(shown).toMatchObject({ uuid: move.uuid, instance_uuid: instance.id, state: 'COMPLETED' });
        expect((shown.history as Body[]).at(-1)?.state).toBe('COMPLETED');
        expect(completed!.data.previous_attributes).toEqual({ state: 'COMMITTING' });
      }
      // In the instance's stream, in the order they happened.
      const seqs = async (id: string) => (await eventsOf(env.db, id)).map((e) => BigInt(e.seq));
      expect((await seqs(there.uuid)).at(-1)! < (await seqs(back.uuid))[0]!).toBe(true);
    },
    MOVES_MS,
  );

  it(
    'records rolled_back for a move undone, and recovery_required for one past its point of no return',
    async () => {
      const undone = await migrationPair(env);
      undone.targetAgent.armFault('migration.prepare_target', { mode: 'fail-permanently', times: 1 });
      const first = await requestedMigration(env, undone.instance.id, undone.target.id);
      expect((await migrationEnd(env, first.workflow_id)).state).toBe('ROLLED_BACK');
      expect(await typesOf(env.db, first.uuid)).toEqual(['migration.requested', 'migration.rolled_back']);

      const stuck = await migrationPair(env);
      stuck.targetAgent.armFault('migration.start_target', { mode: 'fail-permanently', times: 1 });
      const second = await requestedMigration(env, stuck.instance.id, stuck.target.id);
      await eventually(
        async () => (await typesOf(env.db, second.uuid)).includes('migration.recovery_required'),
        60_000,
        'recovery_required',
      );
      const events = await planeEvents(second.uuid, stuck.instance.id);
      expect(events.map((e) => e.type)).toEqual(['migration.requested', 'migration.recovery_required']);
      expect(rendered(events[1]!).data.object.attributes).toMatchObject({
        state: 'RECOVERY_REQUIRED',
        point_of_no_return_passed: true,
      });
    },
    MOVES_MS,
  );

  it(
    'of two requests at once records the one accepted; a state that rolled back records nothing',
    async () => {
      const { source, target, instance } = await migrationPair(env);
      const path = `/instances/${instance.id}/migrations`;
      const answers = await Promise.all(
        [1, 2].map(() => admin('POST', path, { target_hypervisor_uuid: target.id, mode: 'AUTO' })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
      const accepted = answers.find((a) => a.status === 202)!.body.attributes;
      await migrationEnd(env, accepted.workflow_id);
      const requested = await env.db
        .selectFrom('outbox_events')
        .select('resource_id')
        .where('stream_id', '=', instance.id)
        .where('type', '=', 'migration.requested')
        .execute();
      expect(requested.map((r) => r.resource_id)).toEqual([accepted.uuid]);

      const seeded = await seedMigrationRecord(env.db, {
        instanceId: instance.id,
        sourceId: source.id,
        targetId: target.id,
        state: 'COMMITTING',
      });
      await rolledBack(env.db, (trx) => recordMigrationState(trx, seeded, 'COMPLETED'));
      expect(await typesOf(env.db, seeded)).toEqual(['migration.requested']);
      await recordMigrationState(env.db, seeded, 'COMPLETED');
      expect(await typesOf(env.db, seeded)).toEqual(['migration.requested', 'migration.completed']);
    },
    MOVES_MS,
  );
});

describe('evacuation events', () => {
  async function drainable(instances: number) {
    const { id: locationId } = await seed.location(env.db);
    const withAgent = () => env.hypervisorWithAgent({ AGENT_SIM_TRANSFER_MS_PER_GB: '25' }, { locationId });
    const source = await withAgent();
    const target = await withAgent();
    for (let i = 0; i < instances; i++) await env.provisionedInstance(source.hypervisor);
    return { source, target };
  }
  const shown = (id: string, state: string) =>
    eventually(
      async () => {
        const { body } = await admin('GET', `/evacuations/${id}`);
        return body.attributes.state === state ? (body.attributes as Body) : undefined;
      },
      180_000,
      `evacuation ${state}`,
    );

  it(
    'records started (with the instances it plans), paused and finished (not resumed) in the hypervisor’s stream; a second drain of the node too',
    async () => {
      const { source } = await drainable(2);
      const path = `/hypervisors/${source.hypervisor.id}/evacuations`;
      const first = (await admin('POST', path, { mode: 'AUTO', max_parallel: 1 })).body.attributes;
      expect((await admin('POST', `/evacuations/${first.uuid}/pause`)).status).toBe(202);
      // Resumed: no news; it drains the node and completes.
      expect((await admin('POST', `/evacuations/${first.uuid}/resume`)).status).toBe(202);
      await shown(first.uuid, 'completed');
      const second = (await admin('POST', path, { mode: 'AUTO' })).body.attributes;
      await shown(second.uuid, 'completed');

      const events = await planeEvents(first.uuid, source.hypervisor.id);
      expect(events.map((e) => e.type)).toEqual([
        'evacuation.started',
        'evacuation.paused',
        'evacuation.finished',
      ]);
      const [started, paused, finished] = events.map(rendered);
      expect(started!.data.object.attributes).toMatchObject({ state: 'running', progress: { total: 2 } });
      expect(paused!.data.previous_attributes).toEqual({ state: 'running' });
      expect(finished!.data.object.attributes).toMatchObject({ state: 'completed', progress: { moved: 2 } });
      expect(finished!.data.previous_attributes).toEqual({ state: 'running' });
      expect(await typesOf(env.db, second.uuid)).toEqual(['evacuation.started', 'evacuation.finished']);
    },
    MOVES_MS,
  );

  it(
    'of two starts at once records the one accepted; a state change that rolled back records nothing; two at once in commit order',
    async () => {
      const { source, target } = await drainable(1);
      target.agent.armFault('disk.transfer', { mode: 'hang', times: 1 });
      const path = `/hypervisors/${source.hypervisor.id}/evacuations`;
      const answers = await Promise.all([1, 2].map(() => admin('POST', path, { mode: 'AUTO' })));
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
      const evacuation = answers.find((a) => a.status === 202)!.body.attributes;
      const started = await env.db
        .selectFrom('outbox_events')
        .select('resource_id')
        .where('stream_id', '=', source.hypervisor.id)
        .where('type', '=', 'evacuation.started')
        .execute();
      expect(started.map((r) => r.resource_id)).toEqual([evacuation.uuid]);

      await rolledBack(env.db, (trx) => moveEvacuationState(trx, evacuation.uuid, ['running'], 'paused'));
      expect(await typesOf(env.db, evacuation.uuid)).toEqual(['evacuation.started']);
      // A pause and an ending at once (as the run's bookkeeping writes them): the ending waits for
      // the pause's lock, and both are recorded in turn.
      await atOnce(
        env.db,
        (trx) => moveEvacuationState(trx, evacuation.uuid, ['running'], 'paused'),
        () =>
          moveEvacuationState(env.db, evacuation.uuid, ['running', 'paused'], 'failed', { reason: 'test' }),
      );
      await env.temporal.workflow.getHandle(evacuation.workflow_id).terminate('the test ended it');
      expect(await typesOf(env.db, evacuation.uuid)).toEqual([
        'evacuation.started',
        'evacuation.paused',
        'evacuation.finished',
      ]);
      expect((await eventsOf(env.db, evacuation.uuid)).at(-1)?.data.previous).toEqual({ state: 'paused' });
    },
    MOVES_MS,
  );
});

describe('hypervisor events', () => {
  const heartbeat = (hypervisorId: string) =>
    acceptHeartbeat(
      env.deps,
      { hypervisorId, credentialId: randomUUID() },
      { agentVersion: 'test', capabilities: [], free: { cpuCores: 1, memoryMb: 1024, diskMb: 10_240 } },
    );
  /**
   * A hypervisor enrolled as its agent would, with no agent left running: a stopped agent's last
   * heartbeat may still reach the API after the test has made the node silent, and bring it back.
   */
  async function enrolledHypervisor() {
    const hypervisor = await seed.hypervisor(env.db, env.locationId);
    const { token } = await createCredential(env.db, {
      type: 'enrollment',
      hypervisorId: hypervisor.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await enrollAgent(env.deps, { token, agentVersion: 'test', clientIp: '127.0.0.1' });
    return hypervisor;
  }
  /** The liveness sweep, as the worker runs it, finding this node silent (and no busy one of other tests). */
  async function silence(hypervisorId: string) {
    await env.db
      .updateTable('hypervisors')
      .set({ last_seen_at: new Date(Date.now() - 86_400_000) })
      .where('id', '=', hypervisorId)
      .execute();
  }
  const sweep = (db = env.db) => markSilentHypervisorsUnreachable(db, 3_600_000);

  it(
    'records online when the agent enrolls, unreachable when its heartbeats stop, online when one comes back; twice',
    async () => {
      const hypervisor = await enrolledHypervisor();
      for (let round = 0; round < 2; round++) {
        await silence(hypervisor.id);
        // This sweep takes it, or a worker's of another file (they share the database) did first.
        await sweep();
        expect((await findHypervisor(env.db, hypervisor.id))?.status).toBe('unreachable');
        await heartbeat(hypervisor.id);
        // A heartbeat that finds it online already is no news.
        await heartbeat(hypervisor.id);
      }
      const events = await planeEvents(hypervisor.id, hypervisor.id);
      expect(events.map((e) => e.type)).toEqual([
        'hypervisor.online',
        'hypervisor.unreachable',
        'hypervisor.online',
        'hypervisor.unreachable',
        'hypervisor.online',
      ]);
      const [enrolled, unreachable] = events.map(rendered);
      expect(enrolled!.data.previous_attributes).toEqual({ status: 'pending' });
      const { body } = await env.call(
        env.admin,
        'GET',
        `/api/application/cloudsvc/hypervisors/${hypervisor.id}`,
      );
      expect(unreachable!.data.object.attributes).toMatchObject({
        uuid: hypervisor.id,
        name: body.attributes.name,
        status: 'unreachable',
      });
      expect(unreachable!.data.previous_attributes).toEqual({ status: 'online' });
    },
    MOVES_MS,
  );

  it(
    'records nothing for a sweep that rolled back; a sweep and a heartbeat at once in commit order',
    async () => {
      const hypervisor = await enrolledHypervisor();
      await silence(hypervisor.id);
      await rolledBack(env.db, (trx) => sweep(trx));
      expect(await typesOf(env.db, hypervisor.id)).toEqual(['hypervisor.online']);
      await atOnce(
        env.db,
        (trx) => sweep(trx),
        () => heartbeat(hypervisor.id),
      );
      expect(await typesOf(env.db, hypervisor.id)).toEqual([
        'hypervisor.online',
        'hypervisor.unreachable',
        'hypervisor.online',
      ]);
    },
    MOVES_MS,
  );
});

describe('who receives the plane’s events', () => {
  it(
    'never a customer’s endpoint: it cannot ask for them, and the relay gives it none; the plane’s gets them',
    async () => {
      const url = 'http://127.0.0.1:9/hooks';
      const customerPath = '/api/client/cloud/webhooks';
      const refused = await env.client.call('POST', customerPath, {
        url,
        event_types: ['hypervisor.online'],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].source).toEqual({ field: 'event_types.0' });
      const customer = await env.client.call('POST', customerPath, {
        url,
        event_types: ['instance.created'],
      });
      expect(customer.status).toBe(201);
      const changed = await env.client.call('PATCH', `${customerPath}/${customer.body.attributes.uuid}`, {
        event_types: ['instance.created', 'migration.requested'],
      });
      expect(changed.status).toBe(400);
      const planePath = '/api/application/cloudsvc/webhooks';
      const plane = await env.admin.call('POST', planePath, { url, event_types: ['hypervisor.online'] });
      expect(plane.status).toBe(201);
      // Even an endpoint row naming one (as none made through the API can) is given none of them.
      await env.db
        .updateTable('webhook_endpoints')
        .set({ event_types: sql`array['instance.created', 'hypervisor.online']` })
        .where('id', '=', customer.body.attributes.uuid)
        .execute();
      try {
        const { hypervisor } = await env.hypervisorWithAgent();
        const [online] = await eventsOf(env.db, hypervisor.id);
        expect(online?.type).toBe('hypervisor.online');
        const deliveriesOf = (endpointId: string) =>
          env.db
            .selectFrom('webhook_deliveries')
            .select('event_id')
            .where('endpoint_id', '=', endpointId)
            .where('event_id', '=', online!.id)
            .execute();
        await eventually(
          async () => {
            await relayEvents(env.deps);
            return (await deliveriesOf(plane.body.attributes.uuid)).length === 1;
          },
          // A pass also hands over what other files' endpoints wait for, in the shared database.
          90_000,
          'the plane’s delivery',
        );
        expect(await deliveriesOf(customer.body.attributes.uuid)).toEqual([]);
      } finally {
        await env.client.call('DELETE', `${customerPath}/${customer.body.attributes.uuid}`);
        await env.admin.call('DELETE', `${planePath}/${plane.body.attributes.uuid}`);
      }
    },
    MOVES_MS,
  );
});

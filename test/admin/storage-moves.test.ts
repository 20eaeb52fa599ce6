import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { storageMovePath } from '../../domain/storage-moves/states.js';
import { attachVolume } from '../../services/storage/volume-attachments.js';
import { createVolume } from '../../services/storage/volumes.js';
import { requestStorageMove } from '../../services/storage-moves/request.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '300' } });
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown, key: string | null = env.admin.key) =>
  env.call(key, method, `/admin/cloudsvc${path}`, body);
const codeOf = (answer: { body: Body }) => answer.body.errors?.[0]?.code;

/** A hypervisor reaching two backends, `local` and `nfs`, and a running instance on it (its disk on `local`). */
async function placed() {
  const { id: locationId } = await seed.location(env.db);
  const { hypervisor, agent } = await env.hypervisorWithAgent({}, { locationId });
  await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
  const instance = await env.provisionedInstance(hypervisor);
  return { hypervisor, agent, instance };
}

const instanceRow = (id: string) =>
  env.db
    .selectFrom('instances')
    .select(['storage_backend', 'status', 'operation_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** The room held for a storage move's copies on the instance's hypervisor, while it is held. */
const heldFor = (instanceId: string) =>
  env.db
    .selectFrom('reservations')
    .select(['storage_move_id', 'disk_mb'])
    .where('instance_id', '=', instanceId)
    .where('purpose', '=', 'storage_move')
    .where('released_at', 'is', null)
    .execute();

const leaseOf = (instanceId: string) =>
  env.db.selectFrom('move_leases').select('move_id').where('instance_id', '=', instanceId).executeTakeFirst();

async function requested(instanceId: string, body: object) {
  const answer = await call('POST', `/instances/${instanceId}/storage-moves`, {
    reason: 'new array',
    ...body,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.attributes as Body;
}

async function showUntil(moveId: string, states: string[]) {
  return eventually(
    async () => {
      const { body } = await call('GET', `/storage-moves/${moveId}`);
      return states.includes(body.attributes.state) ? (body.attributes as Body) : undefined;
    },
    30_000,
    `storage move in ${states.join(' or ')}`,
  );
}

describe('POST /instances/{instance}/storage-moves/preflight', () => {
  it('reports the disks, the strategy and every blocker, and changes nothing', async () => {
    const { instance } = await placed();
    const path = `/instances/${instance.id}/storage-moves/preflight`;
    const ok = await call('POST', path, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      object: 'storage_move_preflight',
      attributes: { ok: true, strategy: 'live', disks: [{ disk: 'root', size_mb: 40960 }], blockers: [] },
    });
    for (const [from, to, code] of [
      ['local', 'local', 'SAME_BACKEND'],
      ['zfs', 'nfs', 'NOTHING_ON_BACKEND'],
      ['local', 'ceph', 'BACKEND_NOT_REACHABLE'],
    ]) {
      const blocked = await call('POST', path, { from_backend: from, to_backend: to, mode: 'AUTO' });
      expect(blocked.body.attributes.ok).toBe(false);
      expect(blocked.body.attributes.blockers.map((b: Body) => b.code)).toContain(code);
    }
    const cold = await call('POST', path, { from_backend: 'local', to_backend: 'nfs', mode: 'COLD' });
    expect(cold.body.attributes.warnings.map((w: Body) => w.code)).toContain('COLD_MOVE_STOPS_INSTANCE');
    expect((await call('GET', `/storage-moves?instance=${instance.id}`)).body.data).toEqual([]);
    expect((await instanceRow(instance.id)).storage_backend).toBe('local');
  });

  it('refuses bad input (400), an unknown instance (404), and any key but an administrator’s', async () => {
    const { instance } = await placed();
    const path = `/instances/${instance.id}/storage-moves`;
    for (const [suffix, body, field] of [
      ['/preflight', { from_backend: 'local', to_backend: 'tape', mode: 'AUTO' }, 'to_backend'],
      ['', { from_backend: 'local', to_backend: 'nfs' }, 'mode'],
      ['', { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO', extra: 1 }, 'extra'],
    ] as const) {
      const answer = await call('POST', `${path}${suffix}`, body);
      expect([answer.status, answer.body.errors[0].source.field]).toEqual([400, field]);
    }
    const good = { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' };
    const unknown = await call('POST', `/instances/${randomUUID()}/storage-moves`, good);
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'SVC-RES-404']);
    expect((await call('POST', path, good, null)).status).toBe(401);
    expect((await call('POST', path, good, env.client.key)).status).toBe(403);
    expect(codeOf(await call('GET', `/storage-moves/${randomUUID()}`))).toBe('SVC-RES-404');
  });
});

describe('a storage move', () => {
  it('moves a running guest’s disk live, keeps the old copy for the window, and back again', async () => {
    const { instance, agent } = await placed();
    for (const [from, to] of [
      ['local', 'nfs'],
      ['nfs', 'local'],
    ]) {
      const move = await requested(instance.id, { from_backend: from, to_backend: to, mode: 'AUTO' });
      expect(move).toMatchObject({
        instance_uuid: instance.id,
        from_backend: from,
        to_backend: to,
        strategy: 'live',
        disks: [{ disk: 'root' }],
        point_of_no_return: 'SWITCHING',
        lease: { holder: expect.stringContaining(move.uuid) },
      });
      expect(move.requested_by).toMatch(/^admin:/);
      const done = await showUntil(move.uuid, ['CLEANED_UP']);
      expect(done.history.map((h: Body) => h.state)).toEqual(storageMovePath('live', true));
      expect(done).toMatchObject({ point_of_no_return_passed: true, lease: null, failed_step: null });
      expect(done.retain_until).toMatch(/Z$/);
      expect(await instanceRow(instance.id)).toEqual({
        storage_backend: to,
        status: 'running',
        operation_id: null,
      });
      const guest = agent.hypervisor().instances[instance.id]!;
      expect(guest.backends).toEqual({ root: to });
      expect(guest.power_state).toBe('running');
      expect(guest.storage_moves ?? {}).toEqual({});
      expect(await heldFor(instance.id)).toEqual([]);
    }
  });

  it('moves the instance’s volumes on the backend with its root disk; a volume elsewhere stays', async () => {
    const location = await seed.location(env.db);
    const { hypervisor, agent } = await env.hypervisorWithAgent({}, { locationId: location.id });
    await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs', 'zfs'] });
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const volumeOn = async (backend: 'local' | 'zfs') => {
      const volume = await createVolume(env.deps, customer, {
        ownerId: env.client.id,
        name: `data-${randomUUID().slice(0, 8)}`,
        location: location.code,
        backend,
        sizeMb: 1024,
        correlationId: null,
      });
      await attachVolume(env.deps, customer, {
        volumeId: volume.id,
        instanceId: instance.id,
        correlationId: null,
      });
      await env.operationResult(instance.id);
      return volume.id;
    };
    const moving = await volumeOn('local');
    const staying = await volumeOn('zfs');
    const move = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    expect(move.disks.map((d: Body) => d.disk).sort()).toEqual(['root', `volume-${moving}`].sort());
    await showUntil(move.uuid, ['CLEANED_UP']);
    const backends = await env.db
      .selectFrom('volumes')
      .select(['id', 'backend', 'state', 'instance_id'])
      .where('id', 'in', [moving, staying])
      .execute();
    expect(Object.fromEntries(backends.map((v) => [v.id, [v.backend, v.state, v.instance_id]]))).toEqual({
      [moving]: ['nfs', 'attached', instance.id],
      [staying]: ['zfs', 'attached', instance.id],
    });
    expect(agent.hypervisor().instances[instance.id]!.backends).toEqual({
      root: 'nfs',
      [`volume-${moving}`]: 'nfs',
    });
  });

  it('moves cold: the running guest stopped for the copy and started after, as its hypervisor reports', async () => {
    const { instance, agent } = await placed();
    const move = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'COLD' });
    expect(move.strategy).toBe('cold');
    const done = await showUntil(move.uuid, ['CLEANED_UP']);
    expect(done.history.map((h: Body) => h.state)).toEqual(storageMovePath('cold', true));
    expect(await instanceRow(instance.id)).toEqual({
      storage_backend: 'nfs',
      status: 'running',
      operation_id: null,
    });
    expect(agent.hypervisor().instances[instance.id]!.power_state).toBe('running');
  });

  it('refuses a second move of the instance while one runs; of two at once one is taken', async () => {
    const { instance, agent } = await placed();
    agent.armFault('storage.copy', { mode: 'hang' });
    const body = { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO', reason: 'x' };
    const both = await Promise.all([
      call('POST', `/instances/${instance.id}/storage-moves`, body),
      call('POST', `/instances/${instance.id}/storage-moves`, body),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
    const first = both.find((a) => a.status === 202)!.body.attributes;
    const again = await call('POST', `/instances/${instance.id}/storage-moves`, body);
    expect(codeOf(again)).toBe('INSTANCE_MIGRATING');
    const migrate = await call('POST', `/instances/${instance.id}/migrations`, { mode: 'AUTO' });
    expect(codeOf(migrate)).toBe('INSTANCE_MIGRATING');

    await showUntil(first.uuid, ['COPYING']);
    expect(await heldFor(instance.id)).toEqual([{ storage_move_id: first.uuid, disk_mb: 40960 }]);
    const cancelled = await call('POST', `/storage-moves/${first.uuid}/cancel`, { reason: 'not now' });
    expect(cancelled.status).toBe(202);
    const ended = await showUntil(first.uuid, ['ROLLED_BACK']);
    expect(ended).toMatchObject({ failed_step: 'COPYING', failure: { code: 'CANCELLED' }, lease: null });
    expect(await instanceRow(instance.id)).toEqual({
      storage_backend: 'local',
      status: 'running',
      operation_id: null,
    });
    expect(await leaseOf(instance.id)).toBeUndefined();
    expect(await heldFor(instance.id)).toEqual([]);
    const refused = await call('POST', `/storage-moves/${first.uuid}/cancel`, { reason: 'again' });
    expect(codeOf(refused)).toBe('MIGRATION_FINISHED');
  });

  it('rolled back by an operator while copying: the old disk stays authoritative, recorded ROLLED_BACK_BY_OPERATOR; twice', async () => {
    const { instance, agent } = await placed();
    agent.armFault('storage.copy', { mode: 'hang' });
    const move = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    await showUntil(move.uuid, ['COPYING']);
    const rolledBack = await call('POST', `/storage-moves/${move.uuid}/rollback`, {
      reason: 'wrong backend',
    });
    expect(rolledBack.status).toBe(202);
    const ended = await showUntil(move.uuid, ['ROLLED_BACK']);
    expect(ended).toMatchObject({
      failed_step: 'COPYING',
      failure: { code: 'ROLLED_BACK_BY_OPERATOR' },
      lease: null,
    });
    expect((await instanceRow(instance.id)).storage_backend).toBe('local');
    expect(await heldFor(instance.id)).toEqual([]);
    const again = await call('POST', `/storage-moves/${move.uuid}/rollback`, { reason: 'again' });
    expect(codeOf(again)).toBe('MIGRATION_FINISHED');
  });

  it('failing before the switch rolls back: the copy removed, the old disk authoritative; the next one goes', async () => {
    const { instance, agent } = await placed();
    agent.armFault('storage.verify', { mode: 'fail-permanently' });
    const failed = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    const ended = await showUntil(failed.uuid, ['ROLLED_BACK']);
    expect(ended).toMatchObject({ failed_step: 'VERIFYING', failure: { code: 'SIMULATED_FAILURE' } });
    expect(ended.point_of_no_return_passed).toBe(false);
    expect(await instanceRow(instance.id)).toEqual({
      storage_backend: 'local',
      status: 'running',
      operation_id: null,
    });
    const guest = agent.hypervisor().instances[instance.id]!;
    expect(guest.backends ?? {}).toEqual({});
    expect(Object.values(guest.storage_moves ?? {}).every((copies) => Object.keys(copies).length === 0)).toBe(
      true,
    );

    const next = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    await showUntil(next.uuid, ['CLEANED_UP']);
    expect((await instanceRow(instance.id)).storage_backend).toBe('nfs');
  });

  it('failing at the switch waits for an operator: undo refused, a retry finishes it, or the old copy is kept', async () => {
    const { instance, agent } = await placed();
    agent.armFault('storage.switch', { mode: 'fail-permanently' });
    const move = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    const stuck = await showUntil(move.uuid, ['RECOVERY_REQUIRED']);
    expect(stuck).toMatchObject({ failed_step: 'SWITCHING', point_of_no_return_passed: true });
    expect(stuck.lease).not.toBeNull();
    for (const kind of ['cancel', 'rollback']) {
      const refused = await call('POST', `/storage-moves/${move.uuid}/${kind}`, { reason: 'undo' });
      expect([refused.status, codeOf(refused)]).toEqual([409, 'MIGRATION_PAST_POINT_OF_NO_RETURN']);
    }
    const retry = await call('POST', `/storage-moves/${move.uuid}/recover`, {
      decision: 'retry',
      reason: 'fixed',
    });
    expect(retry.status).toBe(202);
    const done = await showUntil(move.uuid, ['CLEANED_UP']);
    expect(done.recovery).toMatchObject({ decision: 'retry', reason: 'fixed', failed_step: 'SWITCHING' });
    expect((await instanceRow(instance.id)).storage_backend).toBe('nfs');
    const again = await call('POST', `/storage-moves/${move.uuid}/recover`, {
      decision: 'retry',
      reason: 'x',
    });
    expect(codeOf(again)).toBe('MIGRATION_NOT_RECOVERABLE');

    // The next one fails once the guest is switched; the operator keeps the old copy.
    agent.armFault('storage.switch', { mode: 'fail-after' });
    const back = await requested(instance.id, { from_backend: 'nfs', to_backend: 'local', mode: 'AUTO' });
    await showUntil(back.uuid, ['RECOVERY_REQUIRED']);
    expect(agent.hypervisor().instances[instance.id]!.backends).toEqual({ root: 'local' });
    // A decision the hypervisor refuses leaves the move waiting for the next one.
    agent.armFault('storage.revert', { mode: 'fail-permanently' });
    const refused = await call('POST', `/storage-moves/${back.uuid}/recover`, {
      decision: 'source_authoritative',
      reason: 'first try',
    });
    expect(refused.status).toBe(202);
    const waiting = await eventually(
      async () => {
        const { body } = await call('GET', `/storage-moves/${back.uuid}`);
        const move = body.attributes as Body;
        return move.state === 'RECOVERY_REQUIRED' && String(move.failure?.message).includes('storage.revert')
          ? move
          : undefined;
      },
      30_000,
      'the refused decision to wait again',
    );
    expect(waiting.lease).not.toBeNull();
    const kept = await call('POST', `/storage-moves/${back.uuid}/recover`, {
      decision: 'source_authoritative',
      reason: 'the old array is fine',
    });
    expect(kept.status).toBe(202);
    const rolledBack = await showUntil(back.uuid, ['ROLLED_BACK']);
    expect(rolledBack.recovery).toMatchObject({ decision: 'source_authoritative' });
    expect(await instanceRow(instance.id)).toEqual({
      storage_backend: 'nfs',
      status: 'running',
      operation_id: null,
    });
    expect(agent.hypervisor().instances[instance.id]!.backends).toEqual({ root: 'nfs' });
    // The new copy went with the decision; no room is held for it.
    expect(agent.hypervisor().instances[instance.id]!.storage_moves?.[back.uuid] ?? {}).toEqual({});
    expect(await heldFor(instance.id)).toEqual([]);
    expect(await leaseOf(instance.id)).toBeUndefined();
  });

  it('with the workflow service unreachable is refused 503 and recorded ROLLED_BACK, holding nothing; twice, then one goes', async () => {
    const { instance } = await placed();
    const cut = { ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    for (let round = 0; round < 2; round++) {
      const refused = requestStorageMove(
        cut,
        { type: 'admin', userId: env.admin.id },
        {
          instanceId: instance.id,
          from: 'local',
          to: 'nfs',
          mode: 'AUTO',
          correlationId: null,
        },
      );
      await expect(refused).rejects.toMatchObject({ code: 'SVC-SYS-503' });
      expect(await instanceRow(instance.id)).toEqual({
        storage_backend: 'local',
        status: 'running',
        operation_id: null,
      });
      expect(await leaseOf(instance.id)).toBeUndefined();
      expect(await heldFor(instance.id)).toEqual([]);
    }
    const moves = (await call('GET', `/storage-moves?instance=${instance.id}`)).body.data;
    expect(moves.map((m: Body) => [m.attributes.state, m.attributes.failure?.code])).toEqual([
      ['ROLLED_BACK', 'WORKFLOW_UNAVAILABLE'],
      ['ROLLED_BACK', 'WORKFLOW_UNAVAILABLE'],
    ]);
    const move = await requested(instance.id, { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' });
    await showUntil(move.uuid, ['CLEANED_UP']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateHypervisor } from '../../db/repositories/hypervisors.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { operatorCli, settingsOf } from './operator-cli.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '300' } });
});
afterAll(() => env.close());

const cli = (args: string[], options: { answer?: string } = {}) =>
  operatorCli(args, { ...options, settings: settingsOf(env.config) });

async function placed() {
  const { id: locationId } = await seed.location(env.db);
  const { hypervisor } = await env.hypervisorWithAgent({}, { locationId });
  await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
  return env.provisionedInstance(hypervisor);
}

const movesOf = (instanceId: string) =>
  env.db.selectFrom('storage_moves').select(['id', 'state']).where('instance_id', '=', instanceId).execute();

describe('cloudsvc:storage-move:preflight, start and status', () => {
  it('check, then move on "yes" showing each state, and report the move; a dry run changes nothing', async () => {
    const instance = await placed();
    const text = await cli(['cloudsvc:storage-move:preflight', instance.id, '--from=local', '--to=nfs']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`instance ${instance.id}, local → nfs, mode AUTO: ok`);
    const blocked = await cli([
      'cloudsvc:storage-move:preflight',
      instance.id,
      '--from=local',
      '--to=ceph',
      '--json',
    ]);
    expect(blocked.code).toBe(1);
    expect(blocked.json().attributes.blockers.map((b: { code: string }) => b.code)).toContain(
      'BACKEND_NOT_REACHABLE',
    );

    const dry = await cli([
      'cloudsvc:storage-move:start',
      instance.id,
      '--from=local',
      '--to=nfs',
      '--mode=AUTO',
      '--dry-run',
    ]);
    expect([dry.code, dry.stdout.includes('Dry run: nothing was requested or changed.')]).toEqual([0, true]);
    const declined = await cli(
      ['cloudsvc:storage-move:start', instance.id, '--from=local', '--to=nfs', '--mode=AUTO'],
      {
        answer: 'no',
      },
    );
    expect(declined.code).toBe(1);
    expect(await movesOf(instance.id)).toEqual([]);

    const run = await cli(
      [
        'cloudsvc:storage-move:start',
        instance.id,
        '--from=local',
        '--to=nfs',
        '--mode=COLD',
        '--reason=new array',
      ],
      { answer: 'yes' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/STOPPING_GUEST[\s\S]*SWITCHING[\s\S]*COMPLETED/);
    const [move] = await movesOf(instance.id);
    const status = await cli(['cloudsvc:storage-move:status', move!.id, '--json']);
    expect(status.json().attributes).toMatchObject({
      from_backend: 'local',
      to_backend: 'nfs',
      strategy: 'cold',
      reason: 'new array',
      requested_by: expect.stringMatching(/^system:cli:/),
    });
    const again = await cli([
      'cloudsvc:storage-move:start',
      instance.id,
      '--from=nfs',
      '--to=local',
      '--mode=AUTO',
      '--force',
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('--force');
    expect(again.json().attributes).toMatchObject({ from_backend: 'nfs', to_backend: 'local' });
  });

  it('cloudsvc:backend-drain:plan and start drain a backend, followed with cloudsvc:evacuation:status', async () => {
    const instance = await placed();
    const { hypervisor_id } = await env.db
      .selectFrom('instances')
      .select('hypervisor_id')
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    const plan = await cli(['cloudsvc:backend-drain:plan', hypervisor_id!, '--from=local', '--to=nfs']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`local → nfs, mode AUTO: 1 instance can move`);
    const dry = await cli([
      'cloudsvc:backend-drain:start',
      hypervisor_id!,
      '--from=local',
      '--to=nfs',
      '--mode=AUTO',
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(await movesOf(instance.id)).toEqual([]);
    const started = await cli([
      'cloudsvc:backend-drain:start',
      hypervisor_id!,
      '--from=local',
      '--to=nfs',
      '--mode=AUTO',
      '--force',
      '--json',
    ]);
    expect(started.code, started.stderr).toBe(0);
    const drain = started.json().attributes;
    expect(drain).toMatchObject({ kind: 'backend', from_backend: 'local', to_backend: 'nfs' });
    await eventually(
      async () =>
        (await cli(['cloudsvc:evacuation:status', drain.uuid, '--json'])).json().attributes.state ===
        'completed',
      30_000,
      'the drain to complete',
    );
    expect((await movesOf(instance.id)).length).toBe(1);
  });

  it('refuse bad usage with exit 2, before anything is read or changed', async () => {
    const instance = await placed();
    for (const args of [
      ['cloudsvc:storage-move:preflight', instance.id, '--to=nfs'],
      ['cloudsvc:storage-move:preflight', instance.id, '--from=local', '--to=tape'],
      ['cloudsvc:storage-move:start', instance.id, '--from=local', '--to=nfs'],
      ['cloudsvc:storage-move:start', instance.id, '--from=local', '--to=nfs', '--mode=AUTO'],
      ['cloudsvc:storage-move:status', 'move-1'],
    ]) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
    }
    expect(await movesOf(instance.id)).toEqual([]);
  });
});

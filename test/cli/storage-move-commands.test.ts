import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
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

async function placedWithAgent() {
  const { id: locationId } = await seed.location(env.db);
  const { hypervisor, agent } = await env.hypervisorWithAgent({}, { locationId });
  await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
  return { hypervisor, agent, instance: await env.provisionedInstance(hypervisor) };
}

const placed = async () => (await placedWithAgent()).instance;

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

  it('recover shows a move waiting for an operator read-only, then records a decision with --mark', async () => {
    const { hypervisor, agent, instance } = await placedWithAgent();
    agent.armFault('storage.switch', { mode: 'fail-permanently' });
    const start = await cli([
      'cloudsvc:storage-move:start',
      instance.id,
      '--from=local',
      '--to=nfs',
      '--mode=AUTO',
      '--force',
    ]);
    expect(start.code).toBe(1);
    expect(start.stdout).toMatch(/RECOVERY_REQUIRED .*failed_step=SWITCHING/);
    const [move] = await movesOf(instance.id);
    const id = move!.id;
    expect(start.stdout).toContain(`Waiting for an operator: cloudsvc cloudsvc:storage-move:recover ${id}`);

    const view = await cli(['cloudsvc:storage-move:recover', id]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain(`Storage move ${id}: RECOVERY_REQUIRED`);
    expect(view.stdout).toContain('failed step  SWITCHING');
    expect(view.stdout).toContain(`hypervisor   ${hypervisor.name} (${hypervisor.id}): online`);
    expect(view.stdout).toContain('backends     local → nfs, disks root');
    for (const decision of ['retry', 'target_authoritative', 'source_authoritative'])
      expect(view.stdout).toContain(`  ${decision}`);
    const json = await cli(['cloudsvc:storage-move:recover', id, '--json']);
    expect(json.json()).toMatchObject({
      storage_move: { attributes: { uuid: id, state: 'RECOVERY_REQUIRED' } },
      hypervisor: { uuid: hypervisor.id, status: 'online' },
      backends: { from: 'local', to: 'nfs' },
      instance: { uuid: instance.id, hypervisor_uuid: hypervisor.id },
      decisions: ['retry', 'target_authoritative', 'source_authoritative'],
    });
    expect((await movesOf(instance.id))[0]?.state).toBe('RECOVERY_REQUIRED');

    for (const args of [['--mark=retry'], ['--mark=restart', '--reason=x'], ['--reason=x']]) {
      const refused = await cli(['cloudsvc:storage-move:recover', id, ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
    }
    const marked = await cli([
      'cloudsvc:storage-move:recover',
      id,
      '--mark=source_authoritative',
      '--reason=the old array is fine',
    ]);
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stdout).toContain(`Recorded source_authoritative on storage move ${id}`);
    await eventually(
      async () => (await movesOf(instance.id))[0]?.state === 'ROLLED_BACK',
      30_000,
      'the move to roll back',
    );
    const status = await cli(['cloudsvc:storage-move:status', id]);
    expect(status.stdout).toContain('recovery decision   source_authoritative by system:cli:');

    const again = await cli(['cloudsvc:storage-move:recover', id, '--mark=retry', '--reason=again']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('MIGRATION_NOT_RECOVERABLE');
    const nothing = await cli(['cloudsvc:storage-move:recover', id]);
    expect(nothing.stdout).toContain('Nothing to decide: the storage move is ROLLED_BACK');
  });

  it('refuse bad usage with exit 2, before anything is read or changed', async () => {
    const instance = await placed();
    for (const args of [
      ['cloudsvc:storage-move:preflight', instance.id, '--to=nfs'],
      ['cloudsvc:storage-move:preflight', instance.id, '--from=local', '--to=tape'],
      ['cloudsvc:storage-move:start', instance.id, '--from=local', '--to=nfs'],
      ['cloudsvc:storage-move:start', instance.id, '--from=local', '--to=nfs', '--mode=AUTO'],
      ['cloudsvc:storage-move:status', 'move-1'],
      ['cloudsvc:storage-move:recover', 'move-1'],
    ]) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
    }
    expect(await movesOf(instance.id)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { itemAfterMove } from '../../domain/evacuations/outcome.js';
import { type Evacuee, planEvacuation, refusalPasses } from '../../domain/evacuations/plan.js';
import { mayRestore, restoreeSkipped } from '../../domain/evacuations/restore.js';
import { type EvacuationPolicy, mayControl } from '../../domain/evacuations/states.js';
import { type HypervisorFacts, type InstanceFacts, preflight } from '../../domain/migrations/preflight.js';

const policy = { autoLive: true, transferMbPerSecond: 100, longTransferSeconds: 1800 };

const node = (id: string, memoryMb: number, extra: Partial<HypervisorFacts> = {}): HypervisorFacts => ({
  id,
  name: id,
  locationId: 'here',
  status: 'online',
  maintenance: false,
  capabilities: ['live_migration'],
  storageBackends: ['local'],
  architecture: 'x86_64',
  virtualization: 'kvm',
  total: { cpu_cores: 64, memory_mb: memoryMb, disk_mb: 1_000_000 },
  reserved: { cpu_cores: 0, memory_mb: 0, disk_mb: 0 },
  ...extra,
});

const guest = (id: string, memoryMb: number, extra: Partial<InstanceFacts> = {}): Evacuee => ({
  id,
  name: id,
  facts: {
    status: 'running',
    placed: true,
    operationRunning: false,
    leaseHeld: false,
    retainedOn: [],
    hostRequirements: [],
    storageBackend: 'local',
    resources: { cpu_cores: 2, memory_mb: memoryMb, disk_mb: 10_240 },
    volumes: { diskMb: 0, backends: [] },
    isoMounted: false,
    placementGroup: null,
    ...extra,
  },
});

describe('the plan of an evacuation', () => {
  const source = node('source', 65_536);

  it('places the largest first and spreads the moves over the targets by their free memory', () => {
    const plan = planEvacuation({
      source,
      hypervisors: [source, node('big', 32_768), node('small', 16_384)],
      instances: [guest('a', 4096), guest('b', 8192), guest('c', 4096), guest('d', 8192)],
      mode: 'AUTO',
      policy,
    });
    expect(plan.unmovable).toEqual([]);
    expect(plan.moves.map((m) => [m.instance.id, m.target.id])).toEqual([
      ['b', 'big'], // 24 GB left on big, 16 on small
      ['d', 'big'], // 16 and 16: the tie goes by id
      ['a', 'big'],
      ['c', 'small'], // 12 GB left on big, 16 on small
    ]);
    expect(plan.moves.every((m) => m.strategy === 'live')).toBe(true);
    expect(plan.targets).toEqual([
      { id: 'big', name: 'big', instances: 3, memory_mb: 20_480, disk_mb: 30_720 },
      { id: 'small', name: 'small', instances: 1, memory_mb: 4096, disk_mb: 10_240 },
    ]);
  });

  it('never counts two instances on the same room, and names every reason of one that cannot move', () => {
    const plan = planEvacuation({
      source,
      hypervisors: [source, node('only', 10_000), node('far', 1_000_000, { locationId: 'elsewhere' })],
      instances: [
        guest('first', 6000),
        guest('second', 6000),
        guest('bound', 1024, { hostRequirements: ['gpu_passthrough'] }),
      ],
      mode: 'AUTO',
      policy,
    });
    expect(plan.moves.map((m) => m.instance.id)).toEqual(['first']);
    expect(plan.unmovable).toEqual([
      {
        instance: { id: 'second', name: 'second' },
        blockers: [{ code: 'NO_TARGET', detail: 'only: TARGET_INSUFFICIENT_CAPACITY' }],
      },
      {
        instance: { id: 'bound', name: 'bound' },
        blockers: [expect.objectContaining({ code: 'HOST_BOUND_GPU_PASSTHROUGH' })],
      },
    ]);
  });

  it('skips a target another member of the instance’s spread group holds; a soft group’s is taken last', () => {
    const spread = (memberHosts: string[]) => ({
      placementGroup: { policy: 'spread' as const, memberHosts },
    });
    const plan = planEvacuation({
      source,
      hypervisors: [source, node('big', 32_768), node('small', 16_384)],
      instances: [
        guest('grouped', 4096, spread(['big'])),
        guest('cornered', 4096, spread(['big', 'small'])),
        guest('soft', 4096, { placementGroup: { policy: 'spread_soft', memberHosts: ['big'] } }),
      ],
      mode: 'AUTO',
      policy,
    });
    // Big has the more free memory, but another member of soft's group is on it.
    expect(plan.moves.map((m) => [m.instance.id, m.target.id])).toEqual([
      ['grouped', 'small'],
      ['soft', 'small'],
    ]);
    expect(plan.unmovable).toEqual([
      {
        instance: { id: 'cornered', name: 'cornered' },
        blockers: [
          { code: 'NO_TARGET', detail: 'big: PLACEMENT_GROUP_SPREAD' },
          { code: 'NO_TARGET', detail: 'small: PLACEMENT_GROUP_SPREAD' },
        ],
      },
    ]);
  });

  it('takes a soft group’s member host when no other will do', () => {
    const plan = planEvacuation({
      source,
      hypervisors: [source, node('big', 32_768), node('small', 2048)],
      instances: [guest('soft', 4096, { placementGroup: { policy: 'spread_soft', memberHosts: ['big'] } })],
      mode: 'AUTO',
      policy,
    });
    expect(plan.moves.map((m) => [m.instance.id, m.target.id])).toEqual([['soft', 'big']]);
  });

  it('LIVE_REQUIRED leaves out the targets without live migration', () => {
    const plan = planEvacuation({
      source,
      hypervisors: [source, node('cold-only', 65_536, { capabilities: [] })],
      instances: [guest('a', 1024)],
      mode: 'LIVE_REQUIRED',
      policy,
    });
    expect(plan.moves).toEqual([]);
    expect(plan.unmovable[0]!.blockers).toEqual([
      { code: 'NO_TARGET', detail: 'cold-only: LIVE_NOT_SUPPORTED' },
    ]);
  });
});

describe('an evacuation’s instance after its migration', () => {
  const base: EvacuationPolicy = {
    mode: 'AUTO',
    maxParallel: 2,
    maxParallelPerTarget: 1,
    onFailure: 'skip',
    maxAttempts: 3,
  };
  const move = (state: string, extra: object = {}) => ({
    state: state as never,
    failedStep: null,
    failure: null,
    operationState: 'running',
    attempts: 1,
    ...extra,
  });

  it('is moved once committed, a failed cleanup of the old copy included', () => {
    for (const state of ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP'])
      expect(itemAfterMove(move(state), base, false).state).toBe('moved');
    expect(itemAfterMove(move('RECOVERY_REQUIRED', { failedStep: 'CLEANING_UP' }), base, false).state).toBe(
      'moved',
    );
  });

  it('waits for an operator in RECOVERY_REQUIRED before the commit, and migrates while the run goes on', () => {
    expect(
      itemAfterMove(move('RECOVERY_REQUIRED', { failedStep: 'STARTING_TARGET' }), base, false).state,
    ).toBe('recovery_required');
    expect(itemAfterMove(move('TRANSFERRING'), base, false)).toEqual({ state: 'migrating' });
  });

  it('a rolled back or abandoned move: skipped, retried while attempts remain, or pausing', () => {
    const failed = move('ROLLED_BACK', { failure: { code: 'SIMULATED_FAILURE', message: 'boom' } });
    expect(itemAfterMove(failed, base, false)).toEqual({
      state: 'failed',
      reasons: [{ code: 'SIMULATED_FAILURE', detail: 'boom' }],
    });
    expect(itemAfterMove(failed, { ...base, onFailure: 'retry' }, false).state).toBe('pending');
    expect(itemAfterMove({ ...failed, attempts: 3 }, { ...base, onFailure: 'retry' }, false).state).toBe(
      'failed',
    );
    expect(itemAfterMove(failed, { ...base, onFailure: 'pause' }, false)).toMatchObject({
      state: 'failed',
      pause: true,
    });
    expect(itemAfterMove(move('TRANSFERRING', { operationState: 'abandoned' }), base, false)).toMatchObject({
      state: 'failed',
      reasons: [{ code: 'ABANDONED' }],
    });
    expect(itemAfterMove(failed, { ...base, onFailure: 'retry' }, true).state).toBe('cancelled');
  });
});

describe('what an administrator may do to an evacuation', () => {
  it('pauses a running one, resumes a paused one, cancels either; nothing once it ended', () => {
    expect(mayControl('running', 'pause')).toEqual({ ok: true });
    expect(mayControl('paused', 'resume')).toEqual({ ok: true });
    expect(mayControl('paused', 'cancel')).toEqual({ ok: true });
    expect(mayControl('running', 'resume')).toMatchObject({ code: 'EVACUATION_STATE_CONFLICT' });
    expect(mayControl('cancelling', 'cancel')).toMatchObject({ code: 'EVACUATION_STATE_CONFLICT' });
    for (const state of ['completed', 'cancelled', 'failed'] as const)
      expect(mayControl(state, 'pause')).toMatchObject({ code: 'EVACUATION_FINISHED' });
  });
});

describe('whether what keeps an evacuation’s instance on its node passes by itself', () => {
  const source = node('source', 65_536);
  const refusal = (targets: HypervisorFacts[], extra: Partial<InstanceFacts> = {}) => {
    const report = preflight({
      instance: guest('a', 4096, extra).facts,
      source,
      hypervisors: [source, ...targets],
      mode: 'AUTO',
      policy,
    });
    expect(report.ok).toBe(false);
    return refusalPasses(report);
  };

  it('passes while a target is refused only because its agent is not online', () => {
    expect(refusal([node('t', 32_768, { status: 'unreachable' })])).toBe(true);
    expect(refusal([node('full', 1024), node('t', 32_768, { status: 'unreachable' })])).toBe(true);
    expect(refusal([node('t', 32_768, { status: 'unreachable', maintenance: true })])).toBe(false);
  });

  it('does not pass when every target is refused for a lasting reason', () => {
    expect(refusal([node('full', 1024)])).toBe(false);
    expect(refusal([node('m', 32_768, { maintenance: true })])).toBe(false);
    expect(refusal([])).toBe(false);
  });

  it('passes when only another operation holds the instance, not when it also carries an ISO', () => {
    expect(refusal([node('t', 32_768)], { operationRunning: true })).toBe(true);
    expect(refusal([node('t', 32_768)], { operationRunning: true, isoMounted: true })).toBe(false);
  });
});

describe('a restore of an evacuation', () => {
  const home = { name: 'hv-1', maintenance: false, status: 'online' };
  const code = (verdict: ReturnType<typeof mayRestore>) => (verdict.ok ? 'ok' : verdict.code);

  it('is allowed for a hypervisor’s evacuation that ran and ended, once its node is back', () => {
    expect(code(mayRestore({ kind: 'hypervisor', state: 'completed' }, home))).toBe('ok');
    expect(code(mayRestore({ kind: 'hypervisor', state: 'cancelled' }, home))).toBe('ok');
  });

  it('is refused while the evacuation runs, for other kinds, and while the node is not back', () => {
    for (const state of ['running', 'paused', 'cancelling'] as const)
      expect(code(mayRestore({ kind: 'hypervisor', state }, home))).toBe('EVACUATION_NOT_FINISHED');
    expect(code(mayRestore({ kind: 'hypervisor', state: 'failed' }, home))).toBe('EVACUATION_NOT_RESTORABLE');
    expect(code(mayRestore({ kind: 'backend', state: 'completed' }, home))).toBe('EVACUATION_NOT_RESTORABLE');
    expect(code(mayRestore({ kind: 'restore', state: 'completed' }, home))).toBe('EVACUATION_NOT_RESTORABLE');
    const done = { kind: 'hypervisor', state: 'completed' } as const;
    expect(code(mayRestore(done, { ...home, maintenance: true }))).toBe('HYPERVISOR_IN_MAINTENANCE');
    expect(code(mayRestore(done, { ...home, status: 'unreachable' }))).toBe('HYPERVISOR_NOT_ONLINE');
  });

  it('leaves an instance deleted or moved elsewhere since, counts one home already, and judges the rest', () => {
    const skipped = (at: string | null | undefined) => restoreeSkipped({ at, home: 'home', leftOn: 'away' });
    expect(skipped(undefined)).toMatchObject({ state: 'cancelled', reasons: [{ code: 'INSTANCE_DELETED' }] });
    expect(skipped('other')).toMatchObject({ state: 'cancelled', reasons: [{ code: 'MOVED_SINCE' }] });
    expect(skipped(null)).toMatchObject({ state: 'cancelled', reasons: [{ code: 'MOVED_SINCE' }] });
    expect(skipped('home')).toMatchObject({ state: 'moved', reasons: [{ code: 'ALREADY_HOME' }] });
    expect(skipped('away')).toBeUndefined();
  });

  it('leaves one the evacuation never moved where it is, saying how the evacuation left it', () => {
    const notMoved = { state: 'failed', code: 'MIGRATION_NOT_CONVERGING' };
    expect(restoreeSkipped({ at: 'home', home: 'home', leftOn: null, notMoved })).toEqual({
      state: 'cancelled',
      reasons: [
        {
          code: 'NOT_MOVED',
          detail:
            'The evacuation did not move the instance (failed: MIGRATION_NOT_CONVERGING); it is left where it is.',
        },
      ],
    });
    expect(restoreeSkipped({ at: undefined, home: 'home', leftOn: null })).toMatchObject({
      reasons: [{ code: 'INSTANCE_DELETED' }],
    });
  });

  it('waits while the home node’s agent missed a heartbeat; a copy the node still retains refuses nothing', () => {
    const source = node('away', 65_536);
    const report = (target: HypervisorFacts, extra: Partial<InstanceFacts> = {}) =>
      preflight({
        instance: guest('a', 4096, extra).facts,
        source,
        hypervisors: [source, target],
        mode: 'AUTO',
        targetId: target.id,
        policy,
      });
    const refusal = (target: HypervisorFacts) => refusalPasses(report(target));
    expect(refusal(node('home', 32_768, { status: 'unreachable' }))).toBe(true);
    expect(refusal(node('home', 32_768, { maintenance: true }))).toBe(false);
    expect(refusal(node('home', 1024))).toBe(false);
    const retained = report(node('home', 32_768), { retainedOn: ['home'] });
    expect(retained.blockers).toEqual([]);
    expect(retained.warnings.map((w) => w.code)).toContain('RETAINED_COPY_REPLACED');
  });
});

import { describe, expect, it } from 'vitest';
import { MIGRATION_STATES_UNDER_WAY, mayLeaveHost } from '../../domain/migrations/outbound.js';
import { happyPath, MIGRATION_STATES } from '../../domain/migrations/states.js';

describe('whether one more move may leave a hypervisor', () => {
  it('allows moves while fewer than the limit are under way, and refuses the one at the limit', () => {
    const source = (underWay: string[], limit: number) => ({ hypervisorName: 'hv-a', underWay, limit });
    expect(mayLeaveHost(source([], 2))).toEqual({ ok: true });
    expect(mayLeaveHost(source(['m1'], 2))).toEqual({ ok: true });
    expect(mayLeaveHost(source(['m1', 'm2'], 2))).toMatchObject({ ok: false, code: 'MIGRATION_SOURCE_BUSY' });
    expect(mayLeaveHost(source(['m1', 'm2', 'm3'], 2))).toMatchObject({ ok: false });
    expect(mayLeaveHost(source(['m1'], 1))).toMatchObject({ ok: false });
  });

  it('names the hypervisor, the limit and the moves under way in its refusal', () => {
    const verdict = mayLeaveHost({ hypervisorName: 'hv-a', underWay: ['m1', 'm2'], limit: 2 });
    if (verdict.ok) throw new Error('expected a refusal');
    expect(verdict.detail).toContain('hv-a');
    expect(verdict.detail).toContain('m1, m2');
    expect(verdict.detail).toContain('MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR allows 2');
  });

  it('counts a move from its request until the guest runs on the target or the move is undone', () => {
    for (const strategy of ['live', 'cold'] as const) {
      const path = happyPath(strategy);
      const before = path.slice(0, path.indexOf('COMPLETED'));
      expect(
        before.every((s) => MIGRATION_STATES_UNDER_WAY.includes(s)),
        strategy,
      ).toBe(true);
    }
    expect(MIGRATION_STATES_UNDER_WAY).toContain('ROLLING_BACK');
    for (const settled of [
      'COMPLETED',
      'CLEANING_UP',
      'CLEANED_UP',
      'ROLLED_BACK',
      'RECOVERY_REQUIRED',
    ] as const)
      expect(MIGRATION_STATES_UNDER_WAY).not.toContain(settled);
    expect(MIGRATION_STATES_UNDER_WAY.length).toBe(MIGRATION_STATES.length - 5);
  });
});

import { describe, expect, it } from 'vitest';
import { attentionOf, QUIET_STATES } from '../../domain/migrations/attention.js';
import { MIGRATION_STATES } from '../../domain/migrations/states.js';

const now = new Date('2026-11-29T03:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('attentionOf', () => {
  it('puts RECOVERY_REQUIRED first, however recent', () => {
    expect(attentionOf({ state: 'RECOVERY_REQUIRED', updatedAt: now }, now, 1000)).toBe('recovery_required');
  });

  it('calls a migration under way stuck once unchanged for longer than the limit, and not before', () => {
    expect(attentionOf({ state: 'TRANSFERRING', updatedAt: ago(1001) }, now, 1000)).toBe('stuck');
    expect(attentionOf({ state: 'TRANSFERRING', updatedAt: ago(1000) }, now, 1000)).toBeUndefined();
  });

  it('never calls a state that lasts by design stuck', () => {
    for (const state of QUIET_STATES.filter((s) => s !== 'RECOVERY_REQUIRED'))
      expect(attentionOf({ state, updatedAt: ago(86_400_000) }, now, 1000), state).toBeUndefined();
    const underWay = MIGRATION_STATES.filter((s) => !QUIET_STATES.includes(s));
    expect(underWay).toContain('ROLLING_BACK');
    expect(underWay).toContain('CLEANING_UP');
  });
});

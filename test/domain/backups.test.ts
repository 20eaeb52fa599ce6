import { describe, expect, it } from 'vitest';
import {
  cronProblem,
  mayActOnBackup,
  quotaVerdict,
  type RetentionCandidate,
  retentionVictims,
} from '../../domain/backups.js';
import { mayBegin } from '../../domain/instances/operations.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const backup = (id: string, days: number, fields: Partial<RetentionCandidate> = {}): RetentionCandidate => ({
  id,
  state: 'available',
  protected: false,
  createdAt: daysAgo(days),
  ...fields,
});

describe('retention', () => {
  it('keeps the newest keep_last available backups and removes the older ones', () => {
    const backups = [backup('d', 3), backup('a', 0), backup('c', 2), backup('b', 1)];
    expect(retentionVictims(backups, { keepLast: 2, keepDays: null }, NOW).sort()).toEqual(['c', 'd']);
  });

  it('never removes a protected backup, nor counts it among those kept', () => {
    const backups = [backup('a', 0), backup('p', 1, { protected: true }), backup('b', 2), backup('c', 3)];
    expect(retentionVictims(backups, { keepLast: 2, keepDays: null }, NOW)).toEqual(['c']);
    const old = [backup('a', 0), backup('p', 400, { protected: true })];
    expect(retentionVictims(old, { keepLast: 1, keepDays: 30 }, NOW)).toEqual([]);
  });

  it('removes available backups older than keep_days, however few remain', () => {
    const backups = [backup('a', 10), backup('b', 40)];
    expect(retentionVictims(backups, { keepLast: 5, keepDays: 30 }, NOW)).toEqual(['b']);
  });

  it('removes failed and corrupt backups, and leaves those in progress alone', () => {
    const backups = [
      backup('a', 0),
      backup('f', 1, { state: 'failed' }),
      backup('x', 2, { state: 'corrupt' }),
      backup('r', 9, { state: 'restoring' }),
      backup('n', 0, { state: 'creating' }),
    ];
    // Failed ones take no place among the kept: a run of failures never pushes a good backup out.
    expect(retentionVictims(backups, { keepLast: 1, keepDays: 1 }, NOW).sort()).toEqual(['f', 'x']);
  });
});

describe('cron expressions', () => {
  it('take five numeric fields with at most one run an hour', () => {
    expect(cronProblem('0 3 * * *')).toBeUndefined();
    expect(cronProblem('30 */6 1-15 1,4,7,10 1-5')).toBeUndefined();
    expect(cronProblem('*/5 * * * *')).toMatch(/minute/);
    expect(cronProblem('* * * * *')).toMatch(/minute/);
    expect(cronProblem('0 3 * *')).toMatch(/five fields/);
    expect(cronProblem('0 24 * * *')).toMatch(/hour field takes 0 to 23/);
    expect(cronProblem('0 3 0 * *')).toMatch(/day of month/);
    expect(cronProblem('0 3 * JAN *')).toMatch(/month field/);
    expect(cronProblem('0 5-3 * * *')).toMatch(/upwards/);
    expect(cronProblem('0 */0 * * *')).toMatch(/step/);
  });
});

describe('backup actions and limits', () => {
  it('refuse a protected backup’s delete and actions from the wrong state', () => {
    expect(mayActOnBackup('delete', { state: 'available', protected: true })).toMatchObject({
      ok: false,
      code: 'SVC-CONFLICT-409',
    });
    expect(mayActOnBackup('restore', { state: 'corrupt', protected: false })).toMatchObject({ ok: false });
    expect(mayActOnBackup('verify', { state: 'corrupt', protected: false })).toEqual({ ok: true });
    expect(mayActOnBackup('delete', { state: 'failed', protected: false })).toEqual({ ok: true });
  });

  it('refuse one more than the limit with SVC-QUOTA-409', () => {
    expect(quotaVerdict('backup', 9, 10)).toEqual({ ok: true });
    expect(quotaVerdict('backup', 10, 10)).toMatchObject({ ok: false, code: 'SVC-QUOTA-409' });
    expect(quotaVerdict('schedule', 5, 5)).toMatchObject({
      detail: expect.stringContaining('backup schedules'),
    });
  });

  it('a restore waits for every other operation and for a migration', () => {
    const idle = { status: 'running', runningOperation: null, migrating: false, suspended: false };
    expect(mayBegin('restore', idle, 'customer')).toEqual({ ok: true });
    for (const running of ['stop', 'rebuild', 'backup', 'snapshot_restore'] as const)
      expect(mayBegin('restore', { ...idle, runningOperation: running }, 'customer')).toMatchObject({
        code: 'SVC-OP-409',
      });
    expect(mayBegin('restore', { ...idle, migrating: true }, 'customer')).toMatchObject({
      code: 'INSTANCE_MIGRATING',
    });
    expect(
      mayBegin('start', { ...idle, status: 'restoring', runningOperation: 'restore' }, 'customer'),
    ).toMatchObject({
      code: 'SVC-OP-409',
    });
    expect(
      mayBegin('kill', { ...idle, status: 'restoring', runningOperation: 'restore' }, 'customer'),
    ).toMatchObject({
      ok: false,
    });
  });
});

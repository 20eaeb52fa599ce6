import { describe, expect, it } from 'vitest';
import {
  INSTANCE_OPERATIONS,
  mayBegin,
  OPERATION_RULES,
  statusAfterFailure,
} from '../../domain/instances/operations.js';
import { INSTANCE_STATUSES } from '../../domain/instances/statuses.js';

describe('the instance operations model', () => {
  it('names every status it uses among the instance statuses', () => {
    for (const rule of Object.values(OPERATION_RULES)) {
      for (const status of [...rule.from, rule.during, rule.outcome])
        if (status !== 'unchanged') expect(INSTANCE_STATUSES).toContain(status);
      for (const preempted of rule.preempts) expect(INSTANCE_OPERATIONS).toContain(preempted);
    }
  });

  it('explains a refusal in the order a caller can act on it', () => {
    const idle = { status: 'running' as const, runningOperation: null, migrating: false, suspended: false };
    expect(mayBegin('stop', idle, 'customer')).toEqual({ ok: true });
    expect(mayBegin('start', idle, 'customer')).toMatchObject({ ok: false, code: 'SVC-CONFLICT-409' });
    expect(mayBegin('stop', { ...idle, migrating: true }, 'customer')).toMatchObject({
      ok: false,
      code: 'INSTANCE_MIGRATING',
    });
    const stopping = {
      status: 'stopping' as const,
      runningOperation: 'stop' as const,
      migrating: false,
      suspended: false,
    };
    expect(mayBegin('restart', stopping, 'customer')).toMatchObject({ ok: false, code: 'SVC-OP-409' });
    expect(mayBegin('kill', stopping, 'customer')).toEqual({ ok: true });
    expect(mayBegin('kill', { ...stopping, runningOperation: 'provision' }, 'customer')).toMatchObject({
      ok: false,
      code: 'SVC-OP-409',
    });
  });

  it('holds a suspended instance against its customer only, before any other reason', () => {
    const suspended = {
      status: 'stopped' as const,
      runningOperation: null,
      migrating: true,
      suspended: true,
    };
    expect(mayBegin('start', suspended, 'customer')).toMatchObject({ ok: false, code: 'INSTANCE_SUSPENDED' });
    expect(mayBegin('start', { ...suspended, migrating: false }, 'operator')).toEqual({ ok: true });
  });

  it('puts a failed power action back where it began, and a failed provisioning in error', () => {
    expect(statusAfterFailure('stop', 'running')).toBe('running');
    expect(statusAfterFailure('kill', 'running')).toBe('running');
    expect(statusAfterFailure('provision', 'provisioning')).toBe('error');
  });
});

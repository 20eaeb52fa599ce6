import { describe, expect, it } from 'vitest';
import { clearsFlagOnly, type GuestFacts, guestCorrection } from '../../domain/instances/guest-inventory.js';
import { INSTANCE_STATUSES } from '../../domain/instances/statuses.js';

/** The rule an inventory applies, case by case (the service around it is test/agents/guest-inventory.test.ts). */
describe('guestCorrection', () => {
  const verdict = (facts: GuestFacts) => {
    const c = guestCorrection(facts);
    return c && `${c.status}/${c.drift ?? '-'} ${c.event}${clearsFlagOnly(facts, c) ? ' (flag only)' : ''}`;
  };

  it('flags a missing or stopped guest and clears the flag once the guest runs', () => {
    expect(verdict({ status: 'running', drift: null, reported: null })).toBe(
      'error/missing instance.guest_missing',
    );
    expect(verdict({ status: 'stopped', drift: null, reported: null })).toBe(
      'error/missing instance.guest_missing',
    );
    expect(verdict({ status: 'running', drift: null, reported: 'stopped' })).toBe(
      'stopped/stopped instance.guest_stopped',
    );
    expect(verdict({ status: 'error', drift: 'missing', reported: 'running' })).toBe(
      'running/- instance.guest_running',
    );
    expect(verdict({ status: 'error', drift: 'missing', reported: 'stopped' })).toBe(
      'stopped/- instance.guest_stopped',
    );
    expect(verdict({ status: 'stopped', drift: 'stopped', reported: 'running' })).toBe(
      'running/- instance.guest_running',
    );
    // Started by the customer: the status is right already, only the flag goes, at once.
    expect(verdict({ status: 'running', drift: 'stopped', reported: 'running' })).toBe(
      'running/- instance.guest_running (flag only)',
    );
  });

  it('changes nothing when report and record agree, or the same report comes again', () => {
    expect(verdict({ status: 'running', drift: null, reported: 'running' })).toBeUndefined();
    expect(verdict({ status: 'stopped', drift: null, reported: 'stopped' })).toBeUndefined();
    expect(verdict({ status: 'error', drift: 'missing', reported: null })).toBeUndefined();
    expect(verdict({ status: 'stopped', drift: 'stopped', reported: 'stopped' })).toBeUndefined();
  });

  it('compares no status an operation or a failure holds, whatever the report', () => {
    const held = INSTANCE_STATUSES.filter((s) => s !== 'running' && s !== 'stopped');
    for (const status of held) {
      for (const reported of [null, 'running', 'stopped'] as const) {
        expect(guestCorrection({ status, drift: null, reported }), `${status} ${reported}`).toBeUndefined();
      }
    }
  });
});

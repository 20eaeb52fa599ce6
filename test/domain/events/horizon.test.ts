import { describe, expect, it } from 'vitest';
import { Horizon } from '../../../domain/events/horizon.js';

/** docs/events.md "The stream": the horizon never passes an event whose transaction may still commit. */
describe('the stream’s horizon', () => {
  it('settles at once what was read while nothing was in flight', () => {
    const horizon = new Horizon(0);
    expect(horizon.observe(7, [])).toBe(7);
    expect(horizon.waiting).toBe(false);
  });

  it('waits for the transactions in flight when the seq was read, and only for them', () => {
    const horizon = new Horizon(3);
    // Transaction 100 may hold a seq up to 9 that has not committed: 9 is not settled yet.
    expect(horizon.observe(9, ['100'])).toBe(3);
    expect(horizon.waiting).toBe(true);
    // 100 still runs; 101 began since and is no matter to 9, but holds 12 back.
    expect(horizon.observe(12, ['100', '101'])).toBe(3);
    // 100 ended: 9 is settled; 12 still waits on 101.
    expect(horizon.observe(12, ['101', '102'])).toBe(9);
    expect(horizon.observe(12, ['102'])).toBe(12);
    expect(horizon.waiting).toBe(false);
  });

  it('settles an earlier candidate with a later one, and never moves back', () => {
    const horizon = new Horizon(0);
    horizon.observe(5, ['1']);
    horizon.observe(8, ['1', '2']);
    expect(horizon.observe(8, [])).toBe(8);
    expect(horizon.observe(6, [])).toBe(8);
  });

  it('keeps waiting while a long transaction runs, whatever else ends', () => {
    const horizon = new Horizon(0);
    horizon.observe(4, ['50', '51']);
    for (let seq = 5; seq < 50; seq++) expect(horizon.observe(seq, ['50', String(seq + 100)])).toBe(0);
    expect(horizon.observe(60, [])).toBe(60);
  });
});

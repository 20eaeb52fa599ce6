import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../domain/usage/csv.js';
import { hoursToClose, USAGE_HOURS_PER_SWEEP, usageRangeVerdict } from '../../domain/usage/hours.js';

describe('hours', () => {
  it('refuses ranges that are not whole hours, reversed, empty or longer than a month', () => {
    const d = (s: string) => new Date(s);
    expect(usageRangeVerdict(d('2026-11-01T00:00:00Z'), d('2026-12-01T00:00:00Z')).ok).toBe(true);
    for (const [from, to] of [
      ['2026-11-01T00:30:00Z', '2026-11-02T00:00:00Z'],
      ['2026-11-02T00:00:00Z', '2026-11-01T00:00:00Z'],
      ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z'],
      ['2026-01-01T00:00:00Z', '2026-12-01T00:00:00Z'],
    ] as const)
      expect(usageRangeVerdict(d(from), d(to))).toMatchObject({ ok: false, code: 'SVC-USAGE-422' });
  });

  it('closes ended hours after the last closed, a day at most per sweep', () => {
    const now = new Date('2026-11-01T12:30:00Z');
    expect(hoursToClose(new Date('2026-11-01T09:00:00Z'), null, now).map((h) => h.toISOString())).toEqual([
      '2026-11-01T10:00:00.000Z',
      '2026-11-01T11:00:00.000Z',
    ]);
    expect(hoursToClose(null, new Date('2026-10-01T09:12:00Z'), now)).toHaveLength(USAGE_HOURS_PER_SWEEP);
    expect(hoursToClose(null, null, now)).toEqual([]);
    // 12:00's hour ends at 13:00: not yet.
    expect(hoursToClose(new Date('2026-11-01T11:00:00Z'), null, new Date('2026-11-01T13:00:30Z'))).toEqual(
      [],
    );
  });
});

describe('CSV cells', () => {
  it('escapes formula starts and quotes separators', () => {
    expect(['=1+1', '+1', '-2', '@SUM(A1)', '\tx'].map(csvCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
    ]);
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['plain', 1.5])).toBe('plain,1.5\r\n');
  });
});

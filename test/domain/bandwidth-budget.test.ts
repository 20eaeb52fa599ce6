import { describe, expect, it } from 'vitest';
import { budgetedBandwidth } from '../../domain/migrations/bandwidth-budget.js';

describe('budgetedBandwidth', () => {
  const host = { budgetMbps: 100, maxOutbound: 2 };

  it('gives a move asking no cap its share of the budget', () => {
    expect(budgetedBandwidth(null, host)).toBe(50);
  });

  it('keeps a lower cap of the policy, and lowers a higher one to the share', () => {
    expect(budgetedBandwidth(20, host)).toBe(20);
    expect(budgetedBandwidth(50, host)).toBe(50);
    expect(budgetedBandwidth(80, host)).toBe(50);
  });

  it('leaves the policy’s cap as it is without a budget', () => {
    expect(budgetedBandwidth(null, { budgetMbps: null, maxOutbound: 2 })).toBeNull();
    expect(budgetedBandwidth(300, { budgetMbps: null, maxOutbound: 2 })).toBe(300);
  });

  it('keeps the shares of the moves under way together within the budget, and at least 1 Mbit/s', () => {
    expect(budgetedBandwidth(null, { budgetMbps: 100, maxOutbound: 3 })).toBe(33);
    expect(3 * (budgetedBandwidth(null, { budgetMbps: 100, maxOutbound: 3 }) ?? 0)).toBeLessThanOrEqual(100);
    expect(budgetedBandwidth(null, { budgetMbps: 1, maxOutbound: 2 })).toBe(1);
  });
});

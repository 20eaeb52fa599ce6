import { describe, expect, it } from 'vitest';
import {
  checkPlanChange,
  checkSizeChange,
  growthOf,
  heldDuring,
  howApplied,
  mayMove,
  roomFor,
  shrinksOf,
} from '../../domain/instances/resize.js';
import type { PlacementCandidate } from '../../domain/placement.js';

const plan = (code: string, extra: Partial<Parameters<typeof checkPlanChange>[0] & object> = {}) => ({
  code,
  is_public: true,
  location_id: null,
  resize_group: 'std',
  ...extra,
});
const instance = { location_id: 'here', plan: plan('small') };

describe('checkPlanChange', () => {
  it('lets a customer move within the group of the instance’s plan, in its location', () => {
    expect(checkPlanChange(plan('big'), instance, 'customer')).toEqual({ ok: true });
    expect(checkPlanChange(plan('big', { location_id: 'here' }), instance, 'customer')).toEqual({ ok: true });
  });

  it('refuses an unknown or withdrawn plan to a customer alike, another location’s to anyone', () => {
    expect(checkPlanChange(undefined, instance, 'customer')).toMatchObject({ code: 'RESIZE_PLAN_UNKNOWN' });
    expect(checkPlanChange(plan('big', { is_public: false }), instance, 'customer')).toMatchObject({
      code: 'RESIZE_PLAN_UNKNOWN',
    });
    expect(checkPlanChange(plan('big', { is_public: false }), instance, 'operator')).toEqual({ ok: true });
    for (const asker of ['customer', 'operator'] as const)
      expect(checkPlanChange(plan('big', { location_id: 'there' }), instance, asker)).toMatchObject({
        code: 'RESIZE_PLAN_OTHER_LOCATION',
      });
  });

  it('holds customers to the group (none: no change), not administrators', () => {
    expect(checkPlanChange(plan('big', { resize_group: 'cpu' }), instance, 'customer')).toMatchObject({
      code: 'RESIZE_PLAN_NOT_ALLOWED',
    });
    const ungrouped = { location_id: 'here', plan: plan('small', { resize_group: null }) };
    expect(checkPlanChange(plan('big'), ungrouped, 'customer')).toMatchObject({
      code: 'RESIZE_PLAN_NOT_ALLOWED',
    });
    expect(checkPlanChange(plan('big'), { location_id: 'here', plan: null }, 'customer')).toMatchObject({
      code: 'RESIZE_PLAN_NOT_ALLOWED',
    });
    expect(checkPlanChange(plan('big', { resize_group: 'cpu' }), instance, 'operator')).toEqual({ ok: true });
  });
});

describe('sizes', () => {
  const from = { cpu_cores: 2, memory_mb: 2048, disk_mb: 20_000 };
  it('a disk never shrinks; the same size is unchanged', () => {
    expect(checkSizeChange(from, { ...from, disk_mb: 19_999 })).toMatchObject({ code: 'RESIZE_DISK_SHRINK' });
    expect(checkSizeChange(from, from)).toBe('unchanged');
    expect(checkSizeChange(from, { ...from, cpu_cores: 1 })).toEqual({ ok: true });
  });

  it('holds the larger size while it runs, reserves only what grows, names what shrinks', () => {
    const to = { cpu_cores: 1, memory_mb: 4096, disk_mb: 30_000 };
    expect(growthOf(from, to)).toEqual({ cpu_cores: 0, memory_mb: 2048, disk_mb: 10_000 });
    expect(heldDuring(from, to)).toEqual({ cpu_cores: 2, memory_mb: 4096, disk_mb: 30_000 });
    expect(shrinksOf(from, to)).toEqual(['cpu_cores']);
  });

  it('a change of the disk alone is hot; the rest as hot-resize.ts says', () => {
    expect(howApplied(from, { ...from, disk_mb: 30_000 }, null, false)).toEqual({ mode: 'hot', reasons: [] });
    expect(howApplied(from, { ...from, cpu_cores: 4 }, { cpu_cores: 8, memory_mb: 8192 }, true)).toEqual({
      mode: 'hot',
      reasons: [],
    });
    expect(howApplied(from, { ...from, cpu_cores: 4 }, null, true).mode).toBe('cold');
  });

  it('moves only when asked, and for a customer only where the provider lets it', () => {
    expect(mayMove('operator', true, false)).toBe(true);
    expect(mayMove('operator', false, true)).toBe(false);
    expect(mayMove('customer', true, false)).toBe(false);
    expect(mayMove('customer', true, true)).toBe(true);
  });
});

describe('roomFor', () => {
  const host = (id: string, free: number, extra: Partial<PlacementCandidate> = {}): PlacementCandidate => ({
    id,
    name: id,
    status: 'online',
    maintenance: false,
    total: { cpu_cores: 32, memory_mb: 65_536, disk_mb: 1_000_000 },
    reserved: { cpu_cores: 32 - free, memory_mb: 0, disk_mb: 0 },
    ...extra,
  });
  const from = { cpu_cores: 2, memory_mb: 2048, disk_mb: 20_000 };
  const to = { cpu_cores: 4, memory_mb: 2048, disk_mb: 20_000 };

  it('fits where the host has the growth free', () => {
    expect(roomFor(host('a', 2), [host('a', 2)], from, to)).toEqual({ kind: 'fits' });
  });

  it('names the best other host for the whole new size, none when none has it', () => {
    const others = [host('a', 1), host('b', 3), host('c', 4), host('d', 30, { maintenance: true })];
    expect(roomFor(others[0]!, others, from, to)).toMatchObject({ kind: 'move', target: { id: 'c' } });
    expect(roomFor(others[0]!, others.slice(0, 2), from, to)).toMatchObject({
      kind: 'none',
      shortfall: ['needs 2 CPU cores, 1 free'],
    });
  });
});

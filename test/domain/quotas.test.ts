import { describe, expect, it } from 'vitest';
import { anyLimit, type QuotaLimits, UNLIMITED, withinQuotas } from '../../domain/quotas.js';

const usage = { instances: 2, cpu_cores: 4, memory_mb: 4096, disk_mb: 50_000, volumes: 1, ips: 2 };
const limits: QuotaLimits = { ...UNLIMITED, instances: 3, cpu_cores: 6, disk_mb: 60_000, ips: 2 };
const order = { instances: 1, cpu_cores: 2, memory_mb: 1024, disk_mb: 10_000, ips: 1 };

describe('per-user quotas', () => {
  it('lets anything through while every resource is unlimited', () => {
    expect(anyLimit(UNLIMITED)).toBe(false);
    expect(withinQuotas(UNLIMITED, usage, { instances: 1_000, disk_mb: 2 ** 40 })).toEqual({ ok: true });
  });

  it('takes an order that lands exactly on a limit', () => {
    expect(anyLimit(limits)).toBe(true);
    expect(withinQuotas(limits, usage, { ...order, ips: 0 })).toEqual({ ok: true });
  });

  it('refuses one unit past a limit, naming the resource, the limit, the usage and the request', () => {
    const verdict = withinQuotas(limits, usage, order);
    expect(verdict).toMatchObject({
      ok: false,
      code: 'QUOTA_EXCEEDED',
      exceeded: { resource: 'ips', limit: 2, usage: 2, requested: 1 },
    });
    expect(!verdict.ok && verdict.detail).toContain('at most 2 IP addresses and holds 2');
    expect(withinQuotas(limits, usage, { cpu_cores: 3 })).toMatchObject({
      ok: false,
      exceeded: { resource: 'cpu_cores', limit: 6, usage: 4, requested: 3 },
    });
  });

  it('names the first resource over its limit in the documented order', () => {
    const verdict = withinQuotas(limits, usage, { instances: 2, cpu_cores: 10, ips: 5 });
    expect(!verdict.ok && verdict.exceeded.resource).toBe('instances');
  });

  it('never refuses what shrinks or stays, even above a limit lowered since (a resize down)', () => {
    const lowered: QuotaLimits = { ...UNLIMITED, cpu_cores: 2, memory_mb: 1024 };
    expect(withinQuotas(lowered, usage, { cpu_cores: -2, memory_mb: 0 })).toEqual({ ok: true });
    expect(withinQuotas(lowered, usage, {})).toEqual({ ok: true });
    expect(withinQuotas(lowered, usage, { cpu_cores: -2, memory_mb: 512 })).toMatchObject({
      ok: false,
      exceeded: { resource: 'memory_mb', limit: 1024, usage: 4096, requested: 512 },
    });
  });

  it('holds a limit of zero: nothing of that resource', () => {
    const none: QuotaLimits = { ...UNLIMITED, volumes: 0 };
    const empty = { ...usage, volumes: 0 };
    expect(withinQuotas(none, empty, { volumes: 1 })).toMatchObject({ ok: false });
    expect(withinQuotas(none, empty, { cpu_cores: 1 })).toEqual({ ok: true });
  });
});

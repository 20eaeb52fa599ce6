import { describe, expect, it } from 'vitest';
import { fitsIn, freeCapacity } from '../../domain/capacity.js';

describe('free capacity of a hypervisor', () => {
  const total = { cpu_cores: 8, memory_mb: 8192, disk_mb: 100_000 };

  it('is the size less every guest it holds, never below zero', () => {
    const guest = { cpu_cores: 2, memory_mb: 2048, disk_mb: 40_000 };
    expect(freeCapacity(total, [])).toEqual(total);
    expect(freeCapacity(total, [guest, guest])).toEqual({ cpu_cores: 4, memory_mb: 4096, disk_mb: 20_000 });
    expect(freeCapacity(total, [guest, guest, guest])).toEqual({ cpu_cores: 2, memory_mb: 2048, disk_mb: 0 });
  });

  it('takes a guest that fits in every dimension, and refuses one short in any', () => {
    const free = { cpu_cores: 2, memory_mb: 1024, disk_mb: 10_000 };
    expect(fitsIn(free, { cpu_cores: 2, memory_mb: 1024, disk_mb: 10_000 })).toBe(true);
    expect(fitsIn(free, { cpu_cores: 3, memory_mb: 512, disk_mb: 1 })).toBe(false);
    expect(fitsIn(free, { cpu_cores: 1, memory_mb: 1025, disk_mb: 1 })).toBe(false);
    expect(fitsIn(free, { cpu_cores: 1, memory_mb: 512, disk_mb: 10_001 })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ceilingFor, resizeMode } from '../../domain/instances/hot-resize.js';

describe('ceilingFor', () => {
  it('gives the provider’s bound, in whole memory blocks above the boot size', () => {
    expect(ceilingFor({ cpu_cores: 1, memory_mb: 512 }, { maxCpuCores: 4, maxMemoryMb: 2000 })).toEqual({
      cpu_cores: 4,
      memory_mb: 512 + 11 * 128,
    });
  });

  it('is never below the size itself', () => {
    expect(ceilingFor({ cpu_cores: 8, memory_mb: 4096 }, { maxCpuCores: 4, maxMemoryMb: 2048 })).toEqual({
      cpu_cores: 8,
      memory_mb: 4096,
    });
  });
});

describe('resizeMode', () => {
  const current = { cpu_cores: 1, memory_mb: 512 };
  const ceiling = { cpu_cores: 4, memory_mb: 2048 };

  it('is hot for growth of a running guest within its ceiling, by whole blocks', () => {
    expect(resizeMode(current, { cpu_cores: 2, memory_mb: 768 }, ceiling, true)).toEqual({
      mode: 'hot',
      reasons: [],
    });
  });

  it('is cold, with each reason, for a shrink, past the ceiling, odd memory or a stopped guest', () => {
    expect(resizeMode(current, { cpu_cores: 1, memory_mb: 256 }, ceiling, true).reasons).toEqual([
      'memory shrinks',
    ]);
    expect(resizeMode(current, { cpu_cores: 8, memory_mb: 600 }, ceiling, false)).toEqual({
      mode: 'cold',
      reasons: [
        'the instance is not running',
        'more than 4 vCPUs',
        'memory changes by a multiple of 128 MB only while running',
      ],
    });
    expect(resizeMode(current, { cpu_cores: 2, memory_mb: 512 }, null, true).reasons).toEqual([
      'the guest was booted without room to grow',
    ]);
  });
});

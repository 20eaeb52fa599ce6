import { describe, expect, it } from 'vitest';
import { type PlacementCandidate, placeableCount, placementFor, roomFor } from '../../domain/placement.js';

/** The count of a plan placement could place: the same rule an order is judged by, repeated. */

const host = (over: Partial<PlacementCandidate> = {}): PlacementCandidate => ({
  id: over.id ?? 'h1',
  name: 'h',
  status: 'online',
  maintenance: false,
  total: { cpu_cores: 8, memory_mb: 16384, disk_mb: 200_000 },
  reserved: { cpu_cores: 0, memory_mb: 0, disk_mb: 0 },
  ...over,
});
const need = { cpu_cores: 2, memory_mb: 4096, disk_mb: 20480 };

describe('the room a hypervisor has for a plan', () => {
  it('is what its scarcest resource holds, after its reservations', () => {
    expect(roomFor(host(), need)).toBe(4);
    expect(roomFor(host({ reserved: { cpu_cores: 2, memory_mb: 0, disk_mb: 180_000 } }), need)).toBe(0);
    expect(roomFor(host({ reserved: { cpu_cores: 1, memory_mb: 0, disk_mb: 0 } }), need)).toBe(3);
  });

  it('is none on a host placement passes over: offline, in maintenance, or reserved beyond its size', () => {
    expect(roomFor(host({ status: 'unreachable' }), need)).toBe(0);
    expect(roomFor(host({ maintenance: true }), need)).toBe(0);
    expect(roomFor(host({ reserved: { cpu_cores: 10, memory_mb: 0, disk_mb: 0 } }), need)).toBe(0);
  });

  it('is exactly how many orders placement accepts, one after another', () => {
    const hosts = [
      host({ id: 'a' }),
      host({ id: 'b', total: { cpu_cores: 4, memory_mb: 32768, disk_mb: 100_000 } }),
    ];
    const expected = placeableCount(hosts, need);
    let placed = 0;
    for (;;) {
      const verdict = placementFor(hosts, need);
      if (!verdict.ok) break;
      const chosen = hosts.findIndex((h) => h.id === verdict.hypervisorIds[0]);
      const h = hosts[chosen]!;
      hosts[chosen] = {
        ...h,
        reserved: {
          cpu_cores: h.reserved.cpu_cores + need.cpu_cores,
          memory_mb: h.reserved.memory_mb + need.memory_mb,
          disk_mb: h.reserved.disk_mb + need.disk_mb,
        },
      };
      placed++;
    }
    expect(expected).toBe(6);
    expect(placed).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { roomFor } from '../../domain/instances/resize.js';
import { noPlacementDetail, type PlacementCandidate, placementFor } from '../../domain/placement.js';
import { mayDeletePlacementGroup } from '../../domain/placement-groups.js';

/** Placement's rule for a group's members: forbidden hosts under `spread`, last ones under `spread_soft`. */

const host = (
  id: string,
  freeMemory = 16384,
  over: Partial<PlacementCandidate> = {},
): PlacementCandidate => ({
  id,
  name: id,
  status: 'online',
  maintenance: false,
  total: { cpu_cores: 8, memory_mb: 16384, disk_mb: 200_000 },
  reserved: { cpu_cores: 0, memory_mb: 16384 - freeMemory, disk_mb: 0 },
  ...over,
});
const need = { cpu_cores: 1, memory_mb: 1024, disk_mb: 10_000 };
const hosts = [host('a', 16000), host('b', 8000), host('c', 4000)];

describe('placement in a group', () => {
  it('spread: hosts holding a member are never offered; none left is the group’s reason', () => {
    expect(placementFor(hosts, need, { policy: 'spread', memberHosts: ['a'] })).toEqual({
      ok: true,
      hypervisorIds: ['b', 'c'],
    });
    const full = placementFor(hosts, need, { policy: 'spread', memberHosts: ['a', 'b', 'c'] });
    expect(full).toEqual({ ok: false, reasons: { offline: 0, maintenance: 0, capacity: 0, group: 3 } });
    if (!full.ok)
      expect(noPlacementDetail('ams1', full.reasons)).toBe(
        'No hypervisor in location ams1 can take this plan now (3 holding another instance of its spread placement group).',
      );
  });

  it('spread: a member’s host is counted for the group whatever else it lacks; the others for their own reason', () => {
    const mixed = [host('a', 0), host('b', 16000, { maintenance: true }), host('c', 500)];
    expect(placementFor(mixed, need, { policy: 'spread', memberHosts: ['a'] })).toEqual({
      ok: false,
      reasons: { offline: 0, maintenance: 1, capacity: 1, group: 1 },
    });
  });

  it('spread_soft: hosts without a member first, then the others, each by free memory', () => {
    expect(placementFor(hosts, need, { policy: 'spread_soft', memberHosts: ['a', 'c'] })).toEqual({
      ok: true,
      hypervisorIds: ['b', 'a', 'c'],
    });
    expect(placementFor(hosts, need, { policy: 'spread_soft', memberHosts: ['a', 'b', 'c'] })).toEqual({
      ok: true,
      hypervisorIds: ['a', 'b', 'c'],
    });
  });

  it('no group: the plain rule', () => {
    expect(placementFor(hosts, need)).toEqual({ ok: true, hypervisorIds: ['a', 'b', 'c'] });
  });

  it('a plan change that must move goes to a host its spread group allows, or nowhere', () => {
    const from = { cpu_cores: 1, memory_mb: 1024, disk_mb: 10_000 };
    const to = { cpu_cores: 1, memory_mb: 4096, disk_mb: 10_000 };
    const own = host('own', 2000);
    const all = [own, ...hosts];
    expect(roomFor(own, all, from, to)).toMatchObject({ kind: 'move', target: { id: 'a' } });
    const spread = { policy: 'spread' as const, memberHosts: ['a'] };
    expect(roomFor(own, all, from, to, spread)).toMatchObject({ kind: 'move', target: { id: 'b' } });
    expect(roomFor(own, all, from, to, { policy: 'spread', memberHosts: ['a', 'b'] })).toMatchObject({
      kind: 'none',
    });
  });

  it('a group with members is not deleted', () => {
    expect(mayDeletePlacementGroup(0)).toEqual({ ok: true });
    expect(mayDeletePlacementGroup(2)).toMatchObject({ ok: false, code: 'SVC-INUSE-409' });
  });
});

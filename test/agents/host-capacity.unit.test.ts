import { describe, expect, it } from 'vitest';
import { arrivalRoom, hostFreeCapacity, instancesRoom } from '../../agent/drivers/host-capacity.js';

describe("a hypervisor's free capacity, as both drivers count it", () => {
  const size = { cpu_cores: 8, memory_mb: 8192, disk_mb: 100_000 };
  const guest = { cpu_cores: 2, memory_mb: 2048, disk_mb: 10_000 };
  const none = { instances: [], incoming: [], volumes: [] };

  it('is the whole size on an empty host', () => {
    expect(hostFreeCapacity(size, none)).toEqual(size);
  });

  it('takes off each instance, and the disk of each volume (on a guest or on none)', () => {
    expect(
      hostFreeCapacity(size, {
        ...none,
        instances: [guest, guest],
        volumes: [{ size_mb: 5_000 }, { size_mb: 1_000 }],
      }),
    ).toEqual({ cpu_cores: 4, memory_mb: 4096, disk_mb: 74_000 });
  });

  it('holds room for a guest arriving by migration, its volumes with it, until it starts here', () => {
    const arriving = { ...guest, started: false, volumes: { a: { size_mb: 3_000 }, b: { size_mb: 2_000 } } };
    expect(hostFreeCapacity(size, { ...none, incoming: [arriving] })).toEqual({
      cpu_cores: 6,
      memory_mb: 6144,
      disk_mb: 85_000,
    });
    // Started, it is an instance of the host (its volumes are the host's): counted there, not twice.
    const landed = { ...arriving, started: true };
    expect(
      hostFreeCapacity(size, {
        instances: [guest],
        incoming: [landed],
        volumes: [{ size_mb: 3_000 }, { size_mb: 2_000 }],
      }),
    ).toEqual({ cpu_cores: 6, memory_mb: 6144, disk_mb: 85_000 });
  });

  it('counts only the disk of a copy whose instance is arriving here again (a move back), until the arrival starts', () => {
    const arriving = { ...guest, instance_id: 'i-1', started: false };
    const held = instancesRoom({ 'i-1': guest, 'i-2': guest }, [arriving]);
    expect(held).toEqual([{ cpu_cores: 0, memory_mb: 0, disk_mb: 10_000 }, guest]);
    expect(hostFreeCapacity(size, { instances: held, incoming: [arriving], volumes: [] })).toEqual({
      cpu_cores: 4,
      memory_mb: 4096,
      disk_mb: 70_000,
    });
    expect(instancesRoom({ 'i-1': guest }, [{ ...arriving, started: true }])).toEqual([guest]);
    // Asked while the arrival is being prepared, before the host keeps it.
    expect(instancesRoom({ 'i-1': guest }, [], 'i-1')).toEqual([
      { cpu_cores: 0, memory_mb: 0, disk_mb: 10_000 },
    ]);
  });

  it('never goes below zero', () => {
    const big = { cpu_cores: 16, memory_mb: 16_384, disk_mb: 200_000 };
    expect(hostFreeCapacity(size, { ...none, instances: [big] })).toEqual({
      cpu_cores: 0,
      memory_mb: 0,
      disk_mb: 0,
    });
  });

  it("asks room for an arrival's disk and its volumes', none of them when it brings none", () => {
    expect(arrivalRoom({ ...guest, volumes: { a: { size_mb: 3_000 } } })).toEqual({
      ...guest,
      disk_mb: 13_000,
    });
    expect(arrivalRoom(guest)).toEqual(guest);
    expect(arrivalRoom({ ...guest, volumes: {} })).toEqual(guest);
  });
});

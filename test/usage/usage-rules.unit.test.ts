import { describe, expect, it } from 'vitest';
import { type UsageState, usageOfHour } from '../../domain/usage/build.js';
import { billedStatusOf } from '../../domain/usage/metrics.js';
import { trafficOfHour } from '../../domain/usage/traffic.js';

const H = new Date('2026-11-01T10:00:00Z');
const at = (minutes: number) => new Date(H.getTime() + minutes * 60_000);
const state = (overrides: Partial<UsageState>): UsageState => ({
  resourceType: 'instance',
  resourceId: 'i-1',
  userId: 'u-1',
  instanceId: 'i-1',
  planId: 'p-1',
  planCode: 'small',
  status: 'running',
  suspended: false,
  cpuCores: 2,
  memoryMb: 2048,
  diskMb: 20480,
  changedAt: at(-30),
  ...overrides,
});
const quantities = (states: UsageState[]) =>
  Object.fromEntries(
    usageOfHour(H, states).map((r) => [`${r.resourceId} ${r.metric} ${r.planCode}`, r.quantity]),
  );

describe('an hour built from its history', () => {
  it('counts a whole hour for a state that held all of it, and nothing of an earlier change', () => {
    expect(quantities([state({})])).toEqual({ 'i-1 instance.running small': '1.000000' });
  });

  it('splits the hour at each change: running, stopped, suspended', () => {
    const states = [
      state({}),
      state({ status: 'stopped', changedAt: at(15) }),
      state({ status: 'stopped', suspended: true, changedAt: at(45) }),
    ];
    expect(quantities(states)).toEqual({
      'i-1 instance.running small': '0.250000',
      'i-1 instance.stopped small': '0.500000',
      'i-1 instance.suspended small': '0.250000',
    });
  });

  it('bills a custom size by vCPU, memory and disk, and a plan change by plan', () => {
    const states = [
      state({ planId: null, planCode: null, changedAt: at(20) }),
      state({ planId: 'p-2', planCode: 'large', changedAt: at(40) }),
    ];
    expect(quantities(states)).toEqual({
      'i-1 instance.running null': '0.333333',
      'i-1 instance.vcpu null': '0.666667',
      'i-1 instance.memory null': '0.666667',
      'i-1 instance.disk null': '6.666667',
      'i-1 instance.running large': '0.333333',
    });
  });

  it('stops at a delete or an unbilled status, and counts volumes and held addresses', () => {
    const states = [
      state({}),
      state({ status: 'deleting', changedAt: at(6) }),
      state({ resourceType: 'ip_address', resourceId: 'a-1', status: 'held', changedAt: at(30) }),
      state({ resourceType: 'ip_address', resourceId: 'a-1', status: null, userId: null, changedAt: at(42) }),
      state({ resourceType: 'volume', resourceId: 'v-1', status: 'available', diskMb: 10240 }),
    ];
    expect(quantities(states)).toEqual({
      'i-1 instance.running small': '0.100000',
      'a-1 ip_address.held small': '0.200000',
      'v-1 volume.storage small': '10.000000',
    });
  });

  it('gives the same records for the same history', () => {
    const states = [state({}), state({ status: 'stopped', changedAt: at(7) })];
    expect(usageOfHour(H, states)).toEqual(usageOfHour(H, [...states]));
  });
});

describe('traffic of an hour', () => {
  it('gives the bytes each way as records, none for a way without traffic or an instance without owner', () => {
    const records = trafficOfHour(H, [
      { instanceId: 'i-1', userId: 'u-1', inboundBytes: '9007199254740993', outboundBytes: '0' },
      { instanceId: 'i-2', userId: null, inboundBytes: '5', outboundBytes: '5' },
    ]);
    expect(records.map((r) => [r.resourceId, r.metric, r.quantity, r.unit])).toEqual([
      ['i-1', 'traffic.inbound', '9007199254740993.000000', 'bytes'],
    ]);
  });
});

describe('billed statuses', () => {
  it('maps the instance statuses, a suspension over either', () => {
    expect(billedStatusOf('migrating', false)).toBe('running');
    expect(billedStatusOf('rebuilding', false)).toBe('stopped');
    expect(billedStatusOf('running', true)).toBe('suspended');
    expect(billedStatusOf('provisioning', true)).toBeNull();
    expect(billedStatusOf('deleted', false)).toBeNull();
  });
});

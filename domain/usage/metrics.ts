import type { InstanceStatus } from '../instances/statuses.js';

/**
 * The metrics a usage record measures (docs/usage.md "Metrics"): each its unit and what it
 * counts. An instance of a plan is billed by the hour in the status it was in; an instance of a
 * custom size (no plan) by its vCPUs, memory and disk besides, over every hour it was billed.
 * Traffic counts in the hour its samples were stored: received by the guest in, sent by it out.
 */
export const USAGE_METRICS = {
  'instance.running': { unit: 'hours' },
  'instance.stopped': { unit: 'hours' },
  'instance.suspended': { unit: 'hours' },
  'instance.vcpu': { unit: 'vcpu-hours' },
  'instance.memory': { unit: 'gb-hours' },
  'instance.disk': { unit: 'gb-hours' },
  'volume.storage': { unit: 'gb-hours' },
  'backup.storage': { unit: 'gb-hours' },
  'snapshot.storage': { unit: 'gb-hours' },
  'ip_address.held': { unit: 'hours' },
  'traffic.inbound': { unit: 'bytes' },
  'traffic.outbound': { unit: 'bytes' },
} as const;
export type UsageMetric = keyof typeof USAGE_METRICS;
export const USAGE_METRIC_NAMES = Object.keys(USAGE_METRICS) as UsageMetric[];

export const USAGE_RESOURCE_TYPES = ['instance', 'volume', 'ip_address', 'backup', 'snapshot'] as const;
export type UsageResourceType = (typeof USAGE_RESOURCE_TYPES)[number];

export const BILLED_STATUSES = ['running', 'stopped', 'suspended'] as const;
export type BilledStatus = (typeof BILLED_STATUSES)[number];

/**
 * What an instance status is billed as. A guest that is up (or being moved, restarted or rescued)
 * runs; one whose guest is down while an operation works on its disk is stopped; one not yet made,
 * failed or going away is not billed. A suspension overrides either, as the provider holds it.
 */
const BILLED_AS: Record<InstanceStatus, 'running' | 'stopped' | null> = {
  running: 'running',
  stopping: 'running',
  restarting: 'running',
  migrating: 'running',
  rescue: 'running',
  stopped: 'stopped',
  starting: 'stopped',
  rebuilding: 'stopped',
  restoring: 'stopped',
  provisioning: null,
  deleting: null,
  deleted: null,
  error: null,
};

export function billedStatusOf(status: string | null, suspended: boolean): BilledStatus | null {
  const billed = status === null ? null : (BILLED_AS[status as InstanceStatus] ?? null);
  if (billed === null) return null;
  return suspended ? 'suspended' : billed;
}

import type { InstanceStatus, PowerState } from './statuses.js';

/**
 * What a hypervisor's inventory contradicted: `missing`, the hypervisor holds no guest for the
 * instance; `stopped`, its guest stopped though the panel had it running (a crash, a kill, a
 * shutdown from inside). The same list is the CHECK constraint `instances_guest_drift` and the
 * OpenAPI enum.
 */
export const GUEST_DRIFTS = ['missing', 'stopped'] as const;
export type GuestDrift = (typeof GUEST_DRIFTS)[number];

/** What the panel holds of an instance placed on the reporting hypervisor, and what the report says. */
export interface GuestFacts {
  readonly status: InstanceStatus;
  readonly drift: GuestDrift | null;
  /** The guest's power state as the hypervisor reported it; null when it holds no guest for it. */
  readonly reported: PowerState | null;
}

export interface GuestCorrection {
  readonly status: InstanceStatus;
  readonly drift: GuestDrift | null;
  /** The activity-log event that records it. */
  readonly event: 'instance.guest_missing' | 'instance.guest_stopped' | 'instance.guest_running';
}

/**
 * How the panel corrects its record of an instance from its hypervisor's inventory, or undefined
 * when they agree. It never asks the hypervisor for anything: a missing guest leaves the instance
 * in `error` (the customer may delete, the administrator restore), a stopped one `stopped` (the
 * customer may start it), and a guest seen again puts the instance back as it runs. Only the
 * steady statuses are compared, and `error` only when a report put it there: every other status
 * names an operation, or a failure whose guest is in doubt. The caller leaves out instances under a
 * running operation or a migration lease, and those whose record changed too recently for the
 * report to have seen it (GUEST_INVENTORY_SETTLE_MS).
 */
export function guestCorrection(facts: GuestFacts): GuestCorrection | undefined {
  const { status, drift, reported } = facts;
  const compared = status === 'running' || status === 'stopped' || (status === 'error' && drift !== null);
  if (!compared) return undefined;
  if (reported === null) {
    return drift === 'missing'
      ? undefined
      : { status: 'error', drift: 'missing', event: 'instance.guest_missing' };
  }
  if (reported === 'stopped') {
    if (status === 'running') return { status: 'stopped', drift: 'stopped', event: 'instance.guest_stopped' };
    if (status === 'error') return { status: 'stopped', drift: null, event: 'instance.guest_stopped' };
    // Stopped and still stopped: a flag of a guest that stopped by itself stays until it runs again.
    return undefined;
  }
  if (status === 'running' && drift === null) return undefined;
  return { status: 'running', drift: null, event: 'instance.guest_running' };
}

/** Whether a correction changes only the flag: safe whenever it comes, as report and record agree. */
export const clearsFlagOnly = (facts: GuestFacts, correction: GuestCorrection) =>
  correction.status === facts.status && correction.drift === null;

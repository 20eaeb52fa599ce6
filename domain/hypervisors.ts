import { HOST_REQUIREMENTS } from './instances/host-requirements.js';

/**
 * What a hypervisor can advertise. `live_migration` gates LIVE_REQUIRED migrations (SPEC.md §3);
 * `console_serial` and `console_graphical` the consoles its agent relays (domain/console/);
 * `hot_resize` that it boots guests with room to grow and grows them while they run
 * (domain/instances/hot-resize.ts); the others are what host-bound instances need
 * (domain/instances/host-requirements.ts).
 */
export const HYPERVISOR_CAPABILITIES = [
  'live_migration',
  'console_serial',
  'console_graphical',
  'hot_resize',
  ...HOST_REQUIREMENTS,
] as const;

export const STORAGE_BACKENDS = ['local', 'lvm', 'zfs', 'ceph', 'nfs'] as const;
export type StorageBackend = (typeof STORAGE_BACKENDS)[number];

/**
 * Hypervisor status: `pending` until its agent first enrolls; `online` while heartbeats arrive;
 * `unreachable` once they stop for HYPERVISOR_UNREACHABLE_AFTER_MS; `revoked` after revoke-agent,
 * until an agent enrolls again with a new token.
 */
export const HYPERVISOR_STATUSES = ['pending', 'online', 'unreachable', 'revoked'] as const;
export type HypervisorStatus = (typeof HYPERVISOR_STATUSES)[number];

/** The three lists a hypervisor's capabilities are judged from. */
export interface CapabilityLists {
  /** What the administrator declared at registration: stands in until the agent first reports. */
  readonly configured: readonly string[];
  /** What the agent's latest heartbeat said its host can do; null before its first heartbeat. */
  readonly reported: readonly string[] | null;
  /** What the administrator takes away, whatever the agent says. */
  readonly withheld: readonly string[];
}

/**
 * The capabilities the panel uses (migration preflight, consoles): what the agent reports, less
 * what the administrator withholds. The agent knows its host (a QEMU that cannot move a guest
 * live, no KVM for CPU passthrough); an administrator can only take away, not add.
 */
export function effectiveCapabilities(lists: CapabilityLists): string[] {
  const offered = lists.reported ?? lists.configured;
  return offered.filter((c) => !lists.withheld.includes(c));
}

import { HOST_REQUIREMENTS } from './instances/host-requirements.js';

/**
 * What a hypervisor can advertise. `live_migration` gates LIVE_REQUIRED migrations (SPEC.md §3);
 * `console_serial` and `console_graphical` the consoles its agent relays (domain/console/); the
 * others are what host-bound instances need (domain/instances/host-requirements.ts).
 */
export const HYPERVISOR_CAPABILITIES = [
  'live_migration',
  'console_serial',
  'console_graphical',
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

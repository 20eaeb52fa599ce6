/**
 * Instance status values (SPEC.md §3 rule 4 leaves them open). Steady statuses say what the
 * guest is; transitional ones name the operation under way. The same list is the CHECK
 * constraint `instances_status` and the OpenAPI enum.
 */
export const INSTANCE_STATUSES = [
  'provisioning',
  'running',
  'stopped',
  'starting',
  'stopping',
  'restarting',
  'rebuilding',
  'restoring',
  'migrating',
  'deleting',
  'deleted',
  'error',
  /** The guest runs its image's rescue system, its disk attached; only leaving it or a delete begin. */
  'rescue',
] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

export const BOOT_DEVICES = ['disk', 'cdrom', 'network'] as const;

export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** What a hypervisor reports of a guest, and the instance status that records it. */
export const POWER_STATES = ['running', 'stopped'] as const;
export type PowerState = (typeof POWER_STATES)[number];
export const statusOfPowerState = (state: PowerState): InstanceStatus => state;

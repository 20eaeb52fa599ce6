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

/** The boot devices the agent protocol names; the CHECK constraint `instances_boot_order` and the OpenAPI enum. */
export const BOOT_DEVICES = ['disk', 'cdrom', 'network'] as const;
export type BootDevice = (typeof BOOT_DEVICES)[number];

/**
 * Every instance's boot order (SPEC.md §2 leaves it open; docs/api.md "Boot order"): read-only, as
 * the hypervisors boot it. A guest starts from its disk; its CD-ROM drive, holding an ISO of its
 * library, is booted only when asked (the ISO boot action), for that one boot. Nothing boots from
 * the network, so no instance lists it.
 */
export const INSTANCE_BOOT_ORDER = ['disk', 'cdrom'] as const satisfies readonly BootDevice[];

export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** What a hypervisor reports of a guest, and the instance status that records it. */
export const POWER_STATES = ['running', 'stopped'] as const;
export type PowerState = (typeof POWER_STATES)[number];
export const statusOfPowerState = (state: PowerState): InstanceStatus => state;

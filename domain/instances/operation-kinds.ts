// The kinds of long operation on an instance, and where an operation's record ends.

export const INSTANCE_OPERATIONS = [
  'provision',
  'start',
  'stop',
  'restart',
  'kill',
  'delete',
  'rebuild',
  'reset_password',
  'backup',
  'restore',
  'backup_verify',
  'backup_delete',
  'snapshot',
  'snapshot_restore',
  'snapshot_delete',
  'migrate',
  'address_attach',
  'address_detach',
  'address_promote',
  'firewall_apply',
  'floating_ip_attach',
  'floating_ip_detach',
  'floating_ip_move',
  'network_attach',
  'network_detach',
  'disk_resize',
  'volume_attach',
  'volume_detach',
  'volume_resize',
  'iso_mount',
  'iso_unmount',
  'iso_boot',
  'rescue_enter',
  'rescue_exit',
  'move_storage',
  'resize',
] as const;
export type InstanceOperation = (typeof INSTANCE_OPERATIONS)[number];

/** Where an operation's row ends; `preempted` by a later operation, `abandoned` when its run vanished. */
export const OPERATION_STATES = [
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'preempted',
  'abandoned',
] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

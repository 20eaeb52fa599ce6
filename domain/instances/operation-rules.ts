import type { InstanceOperation } from './operation-kinds.js';
import type { InstanceStatus } from './statuses.js';

/**
 * The instance operations model: for every long operation on an instance, the statuses it may
 * start from, the status while it runs, the status it is expected to end in, where a failure
 * leaves the instance, and which running operations it may preempt. The repository's
 * compare-and-set (db/repositories/instances/instance-operations.ts) enforces exactly this table; nothing
 * else decides whether an operation may begin.
 */
export interface OperationRule {
  readonly from: readonly InstanceStatus[];
  /** `unchanged`: the operation holds the instance without changing its status (a password reset). */
  readonly during: InstanceStatus | 'unchanged';
  /** The status success is expected to give; the hypervisor's report has the last word. */
  readonly outcome: InstanceStatus | 'unchanged';
  /** `previous`: back to the status the instance had before the operation (or the one it preempted). */
  readonly onFailure: InstanceStatus | 'previous';
  readonly preempts: readonly InstanceOperation[];
}

const NETWORK_CHANGE: OperationRule = {
  from: ['running', 'stopped'],
  during: 'unchanged',
  outcome: 'unchanged',
  onFailure: 'previous',
  preempts: [],
};

const DISK_CHANGE: OperationRule = {
  from: ['running', 'stopped'],
  during: 'unchanged',
  outcome: 'unchanged',
  onFailure: 'previous',
  preempts: [],
};

export const OPERATION_RULES: Record<InstanceOperation, OperationRule> = {
  provision: {
    from: ['provisioning'],
    during: 'provisioning',
    outcome: 'running',
    onFailure: 'error',
    preempts: [],
  },
  start: { from: ['stopped'], during: 'starting', outcome: 'running', onFailure: 'previous', preempts: [] },
  stop: { from: ['running'], during: 'stopping', outcome: 'stopped', onFailure: 'previous', preempts: [] },
  restart: {
    from: ['running'],
    during: 'restarting',
    outcome: 'running',
    onFailure: 'previous',
    preempts: [],
  },
  // kill is the way out of a hung power transition: it takes over a running start, stop or restart.
  kill: {
    from: ['running', 'starting', 'stopping', 'restarting'],
    during: 'stopping',
    outcome: 'stopped',
    onFailure: 'previous',
    preempts: ['start', 'stop', 'restart'],
  },
  delete: {
    from: ['running', 'stopped', 'error', 'rescue'],
    during: 'deleting',
    outcome: 'deleted',
    onFailure: 'previous',
    preempts: [],
  },
  // A failed rebuild may have half-written the disk: the instance is left in error.
  rebuild: {
    from: ['running', 'stopped'],
    during: 'rebuilding',
    outcome: 'running',
    onFailure: 'error',
    preempts: [],
  },
  reset_password: {
    from: ['running', 'stopped'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  // A migration holds the instance in `migrating` (and under its lease) from request to commit or
  // rollback; the instance ends in the power state it had, now on the target or still on the source.
  migrate: {
    from: ['running', 'stopped'],
    during: 'migrating',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  // A storage move keeps the instance on its host; its disks change backend under it.
  move_storage: {
    from: ['running', 'stopped'],
    during: 'migrating',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  // Backups and snapshots are taken of a running or stopped guest without changing its status; one
  // operation at a time still holds, so no power action, rebuild or migration meets a half-made copy.
  backup: {
    from: ['running', 'stopped'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  // A restore keeps the current disk until the restored one has verified and taken its place, and
  // puts it back on failure: unlike a failed rebuild, a failed restore leaves the instance as it was.
  restore: {
    from: ['running', 'stopped'],
    during: 'restoring',
    outcome: 'running',
    onFailure: 'previous',
    preempts: [],
  },
  // Verifying and deleting a backup touch the store, not the guest, so an instance in error may do
  // both; as operations they take turns with everything else and appear in the task history.
  backup_verify: {
    from: ['running', 'stopped', 'error'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  backup_delete: {
    from: ['running', 'stopped', 'error'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  snapshot: {
    from: ['running', 'stopped'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  snapshot_restore: {
    from: ['running', 'stopped'],
    during: 'restoring',
    outcome: 'running',
    onFailure: 'previous',
    preempts: [],
  },
  snapshot_delete: {
    from: ['running', 'stopped', 'error'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  // Network changes keep the guest's status: a stopped guest finds its network as changed on boot.
  address_attach: NETWORK_CHANGE,
  address_detach: NETWORK_CHANGE,
  address_promote: NETWORK_CHANGE,
  firewall_apply: NETWORK_CHANGE,
  // A floating IP's operations hold the instance that gains it (attach, move) or loses it (detach).
  floating_ip_attach: NETWORK_CHANGE,
  floating_ip_detach: NETWORK_CHANGE,
  floating_ip_move: NETWORK_CHANGE,
  // Joining or leaving a private network holds the instance whose NIC it is.
  network_attach: NETWORK_CHANGE,
  network_detach: NETWORK_CHANGE,
  // A disk grows under a running guest (it sees the new size at once) or a stopped one.
  disk_resize: DISK_CHANGE,
  // A volume comes, goes or grows under a running guest (hot-plugged) or a stopped one (at its boot).
  volume_attach: DISK_CHANGE,
  volume_detach: DISK_CHANGE,
  volume_resize: DISK_CHANGE,
  // An ISO goes into or out of the CD-ROM drive of a running guest, or of a stopped one for its boot.
  iso_mount: DISK_CHANGE,
  iso_unmount: DISK_CHANGE,
  // Booting from an ISO (re)starts the guest from its CD-ROM drive.
  iso_boot: {
    from: ['running', 'stopped'],
    during: 'restarting',
    outcome: 'running',
    onFailure: 'previous',
    preempts: [],
  },
  // A plan change holds the instance without changing its status: a hot one never stops the guest,
  // and a cold one ends in the power state the hypervisor reports (a running guest started again).
  // A failure leaves the instance's size, status and reservation as they were.
  resize: {
    from: ['running', 'stopped'],
    during: 'unchanged',
    outcome: 'unchanged',
    onFailure: 'previous',
    preempts: [],
  },
  // Rescue mode: the guest restarted into its image's rescue system, and back onto its own disk.
  rescue_enter: {
    from: ['running', 'stopped'],
    during: 'restarting',
    outcome: 'rescue',
    onFailure: 'previous',
    preempts: [],
  },
  rescue_exit: {
    from: ['rescue'],
    during: 'restarting',
    outcome: 'running',
    onFailure: 'previous',
    preempts: [],
  },
};

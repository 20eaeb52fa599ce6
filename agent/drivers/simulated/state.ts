import { join } from 'node:path';
import { z } from 'zod';
import type { AppliedConvergence } from '../../../domain/agent-tasks/migration.js';
import { AGENT_TASK_TYPES, type AgentTaskParams, type AgentTaskType } from '../../../domain/agent-tasks.js';
import { FAULT_MODES, type FaultMode } from '../../config.js';

// The simulated hypervisor's state, kept in a local file: what the driver and its migration
// side both read and write.

export interface IncomingInstance {
  instance_id: string;
  hostname: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  /** What arrived, once the disk was transferred. */
  disk: DiskContent | null;
  network_ready: boolean;
  /** What `network.prepare` said the guest has: its primary addresses, and its whole network and firewall. */
  ipv4?: string | null;
  ipv6?: string | null;
  network?: SimulatedNetwork;
  firewall?: SimulatedFirewall;
  defined: boolean;
  started: boolean;
  /** The customer's volumes coming with it, by volume id (migration-volumes.ts); absent: none. */
  volumes?: Record<string, IncomingVolume>;
  /** The earlier migration whose retained copy this arrival set aside when it started here (retained-copies.ts). */
  set_aside_from?: string;
  /** Readied for post-copy by `migration.define_target` (its `post_copy`). */
  post_copy?: boolean;
}

/**
 * The copy a migration leaves on its source, by migration id, from its disk's export until its
 * cleanup (retained-copies.ts). While the instance is not back here the copy is the instance's
 * own entry; once a later migration brings the instance back and starts it here, the old copy is
 * set aside here, beside it, until this migration's cleanup removes it.
 */
export interface OutgoingCopy {
  instance_id: string;
  set_aside?: { instance: SimulatedInstance; volumes: Record<string, SimulatedVolume> };
}

/** A volume coming with a migrating guest: its room, and what arrived once transferred. */
export interface IncomingVolume {
  size_mb: number;
  arrived: VolumeContent | null;
}

/** A volume's disk as it travels: the simulated volume has no bytes, only these. */
export interface VolumeContent {
  volume_id: string;
  size_mb: number;
  slot: number;
}

export interface DiskContent {
  image: string;
  hostname: string;
  timezone: string;
  root_password_sha256: string;
  disk_generation: number;
  /**
   * Not the disk's: the guest's room to grow, which travels in the same offer as the QEMU driver's
   * setup handoff carries it, so the target's guest has the room the source's process had.
   * Absent from an offer made before it travelled: none.
   */
  growth?: Pick<SimulatedInstance, 'ceiling' | 'booted_ceiling'>;
}

export interface MigrationState {
  instances: Record<string, SimulatedInstance>;
  /** The simulated link live moves out of here go over, MiB/s (a test's knob); absent: as fast as their cap. */
  migration_link_mib_s?: number;
  incoming?: Record<string, IncomingInstance>;
  /** Each live move out of this host, by migration id: the convergence figures it ran with. */
  converged?: Record<string, AppliedConvergence>;
  volumes?: Record<string, SimulatedVolume>;
  outgoing?: Record<string, OutgoingCopy>;
}

export interface SimulatedInstance {
  hostname: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  image: string;
  boot_order: string[];
  ipv4: string | null;
  ipv6: string | null;
  power_state: 'running' | 'stopped';
  created_at: string;
  timezone: string;
  /** What a test compares with the password the customer was shown; the password itself is not kept. */
  root_password_sha256: string;
  ssh_keys: string[];
  /** The customer's user-data its last create or rebuild gave it (kind, SHA-256 of the text); absent: none. */
  user_data?: { kind: string; sha256: string };
  /** How many times the disk was written from an image (1 after create). */
  disk_generation: number;
  last_rebuild_id: string | null;
  /** How fast the guest dirties its memory, MiB/s (a test's knob, for a live move: live-move.ts); absent: 0. */
  dirty_mib_s?: number;
  /**
   * The disk's content, in miniature: written by create and rebuild (or from a backup), a line
   * added by each start and restart the panel asks for (what a guest's logs would write). Backups,
   * snapshots and restores copy it, and their checksums are its SHA-256. Absent in state written
   * before disks had content, and on an instance that arrived another way: see `#disk`.
   */
  disk?: string;
  boots?: number;
  /** Snapshots, kept beside the disk: they go with the instance. */
  snapshots?: Record<string, SimulatedArtifact>;
  /** Restores under way, by restore id: the restored disk beside the current one, then the old one kept aside. */
  restores?: Record<string, SimulatedRestore>;
  /** The network last applied (`network.apply`); absent while the instance has its create's addresses only. */
  network?: SimulatedNetwork;
  /** The firewall last applied (`firewall.apply`); absent until the first. */
  firewall?: SimulatedFirewall;
  /** Its ISO library, by ISO id: what each fetch brought (the files are in AGENT_STATE_DIR/isos). */
  isos?: Record<string, { size_mb: number; sha256: string }>;
  /** The ISO in its CD-ROM drive; absent or null: empty. */
  mounted_iso?: string | null;
  /** Whether it runs its rescue system (its disk attached) instead of its own disk. */
  rescue?: boolean;
  /** The room to grow each boot from its own kernel gives it (instance.create, a cold instance.resize); absent: none. */
  ceiling?: { cpu_cores: number; memory_mb: number };
  /**
   * The room its present boot gave it, where less than `ceiling` (from the CD-ROM: no memory room,
   * as on the QEMU driver); null: none; absent: `ceiling`. Dropped by its next boot from its disk.
   */
  booted_ceiling?: { cpu_cores: number; memory_mb: number } | null;
  /** The backend each of its disks is on, by disk name, once a storage move switched it; absent: where it was made. */
  backends?: Record<string, string>;
  /** Storage moves under way or kept for their cleanup, by move id: each disk's copy. */
  storage_moves?: Record<string, Record<string, SimulatedDiskCopy>>;
}

/** A disk's copy made by a storage move: from where to where, and whether the guest uses it. */
export interface SimulatedDiskCopy {
  from: string;
  to: string;
  size_mb: number;
  switched: boolean;
}

/** An instance's firewall at the panel's revision. */
export interface SimulatedFirewall {
  revision: number;
  enabled: boolean;
  rules: AgentTaskParams<'firewall.apply'>['rules'];
}

/** An instance's network at the panel's revision: every address with its role. */
export interface SimulatedNetwork {
  revision: number;
  addresses: AgentTaskParams<'network.apply'>['addresses'];
  /** Its NICs on private networks. */
  nics: AgentTaskParams<'network.apply'>['nics'];
}

/** A customer's volume on the hypervisor: its disk, and the instance and slot it is in. */
export interface SimulatedVolume {
  size_mb: number;
  instance_id: string | null;
  slot: number | null;
  created_at: string;
}

/** A backup or snapshot: the content copied, and the checksum computed while it was written. */
export interface SimulatedArtifact {
  instance_id: string;
  content: string;
  written_checksum: string;
  size_mb: number;
  created_at: string;
}

/** A restore: the restored disk written beside the current one; once swapped, the old one kept aside. */
export interface SimulatedRestore {
  staged: string;
  previous: string | null;
}

/** The simulated location's backup store, shared by its agents (AGENT_SIM_BACKUP_DIR). */
export interface SimulatedBackupStore {
  backups: Record<string, SimulatedArtifact>;
}

/** An instance's disk with its content and the rest of its disk state filled in. */
export type DiskState = SimulatedInstance &
  Required<Pick<SimulatedInstance, 'disk' | 'boots' | 'snapshots' | 'restores'>>;

/** One change the simulated hypervisor applied, in order: what tests read to count effects. */
export interface AppliedChange {
  type: AgentTaskType;
  /** The instance it changed; a volume's own tasks (create, resize, delete) give the volume's id. */
  instance_id: string;
  detail: string;
  at: string;
}

/**
 * A fault armed while the driver runs. It hits `times` calls of its task type in a row (default
 * 1), starting with the `nth` call counted from its arming (default 1: the very next one).
 */
export interface ArmedFault {
  readonly mode: FaultMode;
  readonly nth?: number;
  readonly times?: number;
}

/** An armed fault as the driver keeps it: calls to let through first, then calls to hit. */
export interface PendingFault {
  id: string;
  type: AgentTaskType;
  mode: FaultMode;
  skip: number;
  remaining: number;
}

export interface SimulatedState {
  instances: Record<string, SimulatedInstance>;
  applied: AppliedChange[];
  /** How often each task type's fault has fired, across restarts (for `times`). */
  faults_fired: Partial<Record<AgentTaskType, number>>;
  /** Faults armed at run time, kept across restarts so a crash fault does not fire again. */
  armed_faults: PendingFault[];
  /** Instances arriving by migration, by migration id (simulated-migration.ts). */
  incoming?: Record<string, IncomingInstance>;
  /** Live moves out of this host, by migration id: the convergence figures each ran with. */
  converged?: Record<string, AppliedConvergence>;
  /** The simulated link live moves out of here go over, MiB/s (a test's knob); absent: as fast as their cap. */
  migration_link_mib_s?: number;
  /** The customers' volumes kept here, by volume id; absent until the first. */
  volumes?: Record<string, SimulatedVolume>;
  /** The copies migrations leave here as their source, by migration id (retained-copies.ts). */
  outgoing?: Record<string, OutgoingCopy>;
}

export const simulatedStatePath = (stateDir: string) => join(stateDir, 'simulated-hypervisor.json');
export const simulatedBackupStorePath = (dir: string) => join(dir, 'simulated-backups.json');

/**
 * Rehearsals arm faults in a running agent by adding entries to this file; the driver reads it
 * before every task and arms each entry (by `id`) once. Write it whole, by rename.
 */
export const simulatedFaultsPath = (stateDir: string) => join(stateDir, 'faults.json');

export const FaultsFile = z.array(
  z.object({
    id: z.string().min(1),
    type: z.enum(AGENT_TASK_TYPES),
    mode: z.enum(FAULT_MODES),
    nth: z.number().int().positive().optional(),
    times: z.number().int().positive().optional(),
  }),
);
export type FaultsFileEntry = z.infer<typeof FaultsFile>[number];

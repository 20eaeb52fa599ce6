import { join } from 'node:path';
import type { AppliedConvergence } from '../../../../domain/agent-tasks/migration.js';
import type { AgentTaskParams, GuestAddresses } from '../../../../domain/agent-tasks.js';
import type { HotplugCeiling } from '../../../../domain/instances/hot-resize.js';
import type { GuestNetworkSet } from '../network/guest-interfaces.js';
import type { HotAdded } from './room-to-grow.js';

/** The instance's firewall as `firewall.apply` gave it: its revision, the toggle and the rules. */
export type GuestFirewallSet = Omit<AgentTaskParams<'firewall.apply'>, 'instance_id'>;

/**
 * A private network's NIC in the guest and the PCIe slot it sits in (1 to the instance's limit):
 * slots are given as NICs come and go, so the slot goes with the guest to a migration's target,
 * whose device set must be the source's.
 */
export interface PluggedNic {
  readonly slot: number;
  readonly mac: string;
  readonly network_id: string;
}

/**
 * A guest's room to grow while it runs (guests/resize.ts): kept with the guest, so a restarted agent,
 * a repeated task and a migration's target know what its QEMU was started with.
 */
export interface GuestGrowth {
  /** The most it may grow to while it runs, given at each boot from its own kernel; absent: none. */
  ceiling?: HotplugCeiling;
  /**
   * The room its present QEMU process was started with, where that is less than `ceiling` (a boot
   * from the CD-ROM has no memory room, guest-launch.ts); null: none; absent: `ceiling`. What a hot
   * change is checked against, the panel is told of, and a migration's target starts with.
   */
  booted_ceiling?: HotplugCeiling | null;
  /**
   * The vCPUs and memory added to its running QEMU (its `cpu_cores` and `memory_mb` count them);
   * dropped at its next boot, which starts it at its whole size.
   */
  hot_added?: HotAdded;
}

/** What the bridged network applied for a guest, the newest revision of each (network/tasks.ts). */
export interface GuestWiring {
  network?: GuestNetworkSet;
  firewall?: GuestFirewallSet;
  /** Its private NICs as its QEMU has them (or boots them), whatever revision put them in. */
  plugged?: PluggedNic[];
}

// What the QEMU driver keeps in its state file (AGENT_STATE_DIR/qemu-hypervisor.json): with the
// guests' own directories, everything a restarted agent needs to find its guests again.

export interface QemuInstance extends GuestWiring, GuestGrowth {
  /** Where its disk, QMP socket, pid file and console log are. */
  dir: string;
  hostname: string;
  /** Its size now, what was added while it runs included. */
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  /** The image store's code its disk was made from; its kernel boots it. */
  image: string;
  /** What its seed told it of the panel's addresses; also shapes its user-mode network. */
  addresses?: GuestAddresses;
  created_at: string;
  last_rebuild_id: string | null;
  /**
   * Keys the salt of the root password's hash (see passwordSalt); made at the first password set
   * here, so older state has none.
   */
  password_key?: string;
  /** Its ISO library, by ISO id: what each fetch brought (the files are guestFiles(dir).iso). */
  isos?: Record<string, { size_mb: number; sha256: string }>;
  /** The ISO in its CD-ROM drive; absent or null: empty. */
  mounted_iso?: string | null;
  /** Its next boot is from the drive (once; `iso.boot`). */
  boot_from_cdrom?: boolean;
  /** Whether it runs its image's rescue system (`rescue.enter`) until `rescue.exit`. */
  rescue?: boolean;
  /** A cold resize stopped it to start it again with its new size (once, even if the task repeats). */
  resume_after_resize?: boolean;
  /** Storage moves of its disks under way or kept for their cleanup, by move id, then disk (`root`, `volume-<uuid>`). */
  storage_moves?: Record<string, Record<string, QemuStorageMove>>;
}

/** A storage move of one of a guest's disks: the new copy, and once switched, the old one kept. */
export interface QemuStorageMove {
  from: string;
  to: string;
  /** Where the new copy is written; renamed to `final` at the switch. */
  partial: string;
  final: string;
  /** The mirror's target node in the running guest, for a live move. */
  node?: string;
  switched: boolean;
  /** The old copy, kept until the cleanup. */
  retained?: string;
}

/**
 * Where an arriving guest waits for a live migration, as its target tells the source
 * (migration/transfer-bodies.ts IncomingPortsBody): its memory comes to `migration_port`, its disks are
 * mirrored into the NBD export on `nbd_port`.
 */
export interface IncomingPorts {
  readonly host: string;
  readonly migration_port: number;
  readonly nbd_port: number;
}

/** A guest arriving by migration, by migration id; its network and firewall come with `network.prepare`. */
export interface QemuIncoming extends GuestWiring, GuestGrowth {
  instance_id: string;
  /** The migration whose retained copy of the instance this arrival found here and keeps apart. */
  set_aside_from?: string;
  hostname: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  dir: string;
  /** The image it was made from, when the panel said (older panels did not). */
  image?: string;
  /**
   * The source's setup handoff (the image, the seed, the addresses), once taken: the arriving guest
   * boots with what it had on the source.
   */
  setup_received?: boolean;
  addresses?: GuestAddresses;
  /** Learnt once, by redeeming the transfer token; kept for the final sync of a cold move. */
  endpoint: string | null;
  /**
   * The move's transport key (64 hex), from `disk.transfer`: everything from the source comes
   * under it, and a live move's waiting guest listens under it. Absent from arrivals begun before
   * moves were keyed.
   */
  transport_secret?: string;
  checksum: string | null;
  network_ready: boolean;
  defined: boolean;
  started: boolean;
  /** Where the waiting guest listens, once started for a live move (said again if the task repeats). */
  listening?: IncomingPorts;
  /**
   * Whether the source's password handoff (the hashes for boots the guest has not had yet) is in
   * the guest's directory here; the key of its salts waits here for the instance.
   */
  password_received?: boolean;
  password_key?: string | null;
  /** The customer's volumes coming with it, by volume id (migration/migration-volumes.ts); absent: none. */
  volumes?: Record<string, IncomingVolume>;
}

/** A volume coming with a migrating guest: pulled into its file here, to land in the slot it had. */
export interface IncomingVolume {
  size_mb: number;
  /** Learnt by redeeming the volume's own transfer token. */
  endpoint: string | null;
  checksum: string | null;
  /** Its slot on the source, from the setup handoff. */
  slot: number | null;
}

/** A volume's disk offered to the target: a copy, as the root disk's. */
export interface ExportedVolume {
  path: string;
  checksum: string;
  of_running_guest: boolean;
}

/** A disk offered to a migration's target, by migration id. */
export interface QemuExport {
  instance_id: string;
  /**
   * The move's transport key (64 hex): the channel serves the offer only to a client that proves
   * it, and a live move's memory and mirrors go under it. Absent from offers made before moves
   * were keyed: served to nobody.
   */
  transport_secret?: string;
  path: string;
  checksum: string;
  /** A running guest's copy is of a moment; once the guest is stopped, a fresh one is taken. */
  of_running_guest: boolean;
  /** Where the target's guest waits for the live migration, once it said so. */
  target: IncomingPorts | null;
  downtime_ms: number | null;
  /** The live move's convergence figures as QEMU held them (a repeated task answers them again). */
  applied?: AppliedConvergence;
  /**
   * The guest's directory when its disk was offered: the copy the cleanup removes, even if the
   * instance has come back here by another migration since.
   */
  dir?: string;
  /** The volumes offered with it, by volume id; the cleanup removes them here. */
  volumes?: Record<string, ExportedVolume>;
  /**
   * The copy's own entry, once the instance came back here and its arrival took the instance's
   * entry (migration/retained-copies.ts): what the cleanup removes of it.
   */
  instance?: QemuInstance;
  /** The copy's volume files, moved aside for an arrival that brings the same volumes, by volume id. */
  kept_volumes?: Record<string, { path: string; volume: QemuVolume }>;
}

/** A customer's volume on this host (its file is disks/volume-slots.ts volumeFile), on one guest at most. */
export interface QemuVolume {
  size_mb: number;
  instance_id: string | null;
  /** Its slot in the guest it is on (disks/volume-slots.ts); null on none. */
  slot: number | null;
  created_at: string;
}

export interface QemuState {
  instances: Record<string, QemuInstance>;
  incoming: Record<string, QemuIncoming>;
  exports: Record<string, QemuExport>;
  channel_port: number | null;
  /** By volume id; absent until the first. */
  volumes?: Record<string, QemuVolume>;
}

export const qemuStatePath = (stateDir: string) => join(stateDir, 'qemu-hypervisor.json');

import { z } from 'zod';
import { storableJsonObject, text } from './input-bounds.js';
import { BOOT_DEVICES, POWER_ACTIONS, POWER_STATES } from './instances/statuses.js';
import {
  FIREWALL_ACTIONS,
  FIREWALL_DIRECTIONS,
  FIREWALL_PROTOCOLS,
  FIREWALL_RULES_CEILING,
} from './networks/firewall.js';
import { PRIVATE_NICS_PER_INSTANCE } from './networks/private-networks.js';

/**
 * The catalogue of semantic agent tasks, shared by the panel (which validates what it
 * dispatches and what agents report) and the agent (which validates what it executes).
 * A task names what should become true, never how: no URIs, host paths or commands.
 */
const instanceId = z.string().uuid();
const powerState = z.enum(POWER_STATES);
/**
 * The guest's root password. The panel seals it (platform/secrets.ts) in workflow histories and
 * task rows and opens it only when it hands the task to the agent.
 */
const rootPassword = z.string().min(1).max(512);
/** OpenSSH public keys (`type base64 comment`), as validated when the customer added them. */
const sshKeys = z.array(z.string().min(1).max(16_384)).max(100);
/** An address the panel assigned, with its pool's prefix length and gateway: what the guest configures. */
const guestAddress = z.object({
  address: z.string().min(2).max(45),
  prefix: z.number().int().min(0).max(128),
  gateway: z.string().min(2).max(45).nullable(),
});
/** The instance's primary addresses as its guest sets them up; null where the panel assigned none. */
export const GuestAddresses = z.object({ ipv4: guestAddress.nullable(), ipv6: guestAddress.nullable() });
export type GuestAddresses = z.infer<typeof GuestAddresses>;

/**
 * The instance's network as a whole, at one revision of the panel's: every address with its
 * role. A hypervisor applies a revision newer than the one it has, all of it or none, and answers
 * with the revision it then has, so an older apply delivered late never undoes a newer one.
 */
export const NETWORK_ADDRESSES_MAX = 64;
const networkAddress = guestAddress.extend({
  family: z.union([z.literal(4), z.literal(6)]),
  primary: z.boolean(),
  floating: z.boolean(),
});
const networkRevision = z.number().int().nonnegative();
/** A NIC on one of the customer's private networks: a bridge of its own, no gateway. */
const privateNic = z.object({
  network_id: z.string().uuid(),
  mac: z.string().regex(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/),
  address: z.string().min(7).max(15),
  prefix: z.number().int().min(16).max(29),
});

/** The instance's whole network at a revision: what `network.apply` and a migration's target get. */
const networkSet = z.object({
  revision: networkRevision,
  addresses: z.array(networkAddress).max(NETWORK_ADDRESSES_MAX),
  // Private networks came after the first network.apply: a task without them has none.
  nics: z.array(privateNic).max(PRIVATE_NICS_PER_INSTANCE).default([]),
});

/** The instance's firewall at a revision, the toggle and every rule in order. */
const firewallSet = z.object({
  revision: networkRevision,
  enabled: z.boolean(),
  rules: z
    .array(
      z.object({
        direction: z.enum(FIREWALL_DIRECTIONS),
        protocol: z.enum(FIREWALL_PROTOCOLS),
        port_from: z.number().int().min(1).max(65_535).nullable(),
        port_to: z.number().int().min(1).max(65_535).nullable(),
        cidr: z.string().min(3).max(49),
        action: z.enum(FIREWALL_ACTIONS),
      }),
    )
    .max(FIREWALL_RULES_CEILING),
});

/**
 * What the hypervisor gives the guest for its first boot (a cloud-init NoCloud seed on the QEMU
 * driver). `addresses` came later than the rest: a task without it leaves the guest to DHCP.
 */
const guestSetup = {
  hostname: z.string().min(1).max(253),
  timezone: z.string().min(1).max(64),
  root_password: rootPassword,
  ssh_keys: sshKeys,
  addresses: GuestAddresses.optional(),
};

/**
 * The migration's tasks (SPEC.md §1: semantic, never hypervisor URIs, host paths or commands). The
 * source and the target each get their own; the disk moves between them by a transfer token the
 * receiving agent redeems through the panel, which tells it where the sender can be reached.
 */
const migrationId = z.string().uuid();
const onMigration = { migration_id: migrationId, instance_id: instanceId };
const checksum = z.string().min(1).max(128);
const MIGRATION_TASKS = {
  /** Target: make room for the incoming instance. */
  'migration.prepare_target': {
    params: z.object({
      ...onMigration,
      /** The image the guest was made from: a target without it refuses before anything moves. */
      image: z.string().min(1).max(100).optional(),
      hostname: z.string().min(1).max(253),
      cpu_cores: z.number().int().positive(),
      memory_mb: z.number().int().positive(),
      disk_mb: z.number().int().positive(),
    }),
    result: z.object({ prepared: z.boolean() }),
  },
  /** Source: offer the disk for transfer; `endpoint` is opaque to the panel, handed only to the redeemer. */
  'disk.export': {
    params: z.object({ ...onMigration, disk: z.string().min(1).max(32) }),
    result: z.object({
      checksum,
      size_mb: z.number().int().nonnegative(),
      endpoint: z.string().min(1).max(1024),
    }),
  },
  /** Target: redeem the token, pull the disk from the sender. */
  'disk.transfer': {
    params: z.object({
      ...onMigration,
      disk: z.string().min(1).max(32),
      transfer_token: z.string().min(1).max(512),
    }),
    result: z.object({ checksum, size_mb: z.number().int().nonnegative() }),
  },
  /** Target: the checksum of what arrived. */
  'disk.verify': {
    params: z.object({ ...onMigration, disk: z.string().min(1).max(32) }),
    result: z.object({ checksum }),
  },
  'network.prepare': {
    params: z.object({
      ...onMigration,
      ipv4: z.string().nullable(),
      ipv6: z.string().nullable(),
      // The instance's whole network and firewall, for the guest to have them where it lands;
      // absent from runs begun before a migration carried them.
      network: networkSet.optional(),
      firewall: firewallSet.optional(),
    }),
    result: z.object({ prepared: z.boolean() }),
  },
  'network.release': {
    params: z.object(onMigration),
    result: z.object({ released: z.boolean() }),
  },
  /** Target: define the guest (a cold move pulls the disk's last changes first). */
  'migration.define_target': {
    params: z.object({ ...onMigration, final_sync: z.boolean() }),
    result: z.object({ defined: z.boolean() }),
  },
  /** Source: move the running guest's memory to the target; the guest then runs there. */
  'migration.live': {
    params: z.object({ ...onMigration, target_hypervisor_id: z.string().uuid() }),
    result: z.object({ downtime_ms: z.number().int().nonnegative() }),
  },
  'migration.start_target': {
    params: z.object({ ...onMigration, start: z.boolean() }),
    result: z.object({ power_state: powerState }),
  },
  'migration.verify_target': {
    params: z.object(onMigration),
    result: z.object({ power_state: powerState }),
  },
  /** Target: throw away whatever the migration put there (a rollback). */
  'migration.discard_target': {
    params: z.object(onMigration),
    result: z.object({ discarded: z.boolean() }),
  },
  /** Source: remove the old copy once the retention window has passed. */
  'migration.cleanup_source': {
    params: z.object(onMigration),
    result: z.object({ removed: z.boolean() }),
  },
} as const;

/** A backup's or snapshot's id (the panel's): the hypervisor names its artifact by it. */
const artifactId = z.string().uuid();
/** What a hypervisor reports of an artifact or disk: its size and the SHA-256 of its content. */
const artifactFacts = z.object({
  size_mb: z.number().int().nonnegative(),
  checksum: z.string().regex(/^[0-9a-f]{64}$/),
});
/**
 * A restore's id (its operation's): the restored disk is written beside the current one under it,
 * so a task delivered twice writes it once, and the swap, revert and release name the same pair.
 */
const restoreId = z.string().uuid();

export const AGENT_TASKS = {
  'instance.create': {
    params: z.object({
      instance_id: instanceId,
      ...guestSetup,
      cpu_cores: z.number().int().positive(),
      memory_mb: z.number().int().positive(),
      disk_mb: z.number().int().positive(),
      image: z.string().min(1),
      boot_order: z.array(z.enum(BOOT_DEVICES)).min(1),
      ipv4: z.string().nullable(),
      ipv6: z.string().nullable(),
      start: z.boolean(),
      /** Restore as a new instance: the disk is written from this backup, whose content must match. */
      from_backup: z.object({ backup_id: artifactId, checksum: artifactFacts.shape.checksum }).optional(),
      /**
       * The firewall the instance is born with (the provider's defaults), in force from its first
       * boot; none leaves it unfiltered until a `firewall.apply`.
       */
      firewall: firewallSet.optional(),
    }),
    /** `firewall_revision`: the firewall's revision, when the hypervisor applies the one it was given. */
    result: z.object({ power_state: powerState, firewall_revision: networkRevision.optional() }),
  },
  'instance.power': {
    params: z.object({ instance_id: instanceId, action: z.enum(POWER_ACTIONS) }),
    result: z.object({ power_state: powerState }),
  },
  /**
   * Touches nothing: the guest's power state as the hypervisor sees it. The panel asks it where an
   * ending must not assume the guest's state (a migration rolled back, or a recovery decided).
   */
  'instance.state': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({ power_state: powerState }),
  },
  'instance.delete': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({ deleted: z.boolean() }),
  },
  /** The disk written anew from an image; the guest set up again and started when asked. */
  'instance.rebuild': {
    params: z.object({
      instance_id: instanceId,
      /** The operation's id: a rebuild delivered twice (an agent restarted mid-task) writes the disk once. */
      rebuild_id: z.string().uuid(),
      image: z.string().min(1),
      ...guestSetup,
      start: z.boolean(),
    }),
    result: z.object({ power_state: powerState }),
  },
  'instance.set_password': {
    params: z.object({ instance_id: instanceId, root_password: rootPassword }),
    result: z.object({ changed: z.boolean() }),
  },
  ...MIGRATION_TASKS,
  /** A copy of the instance's disk into the location's backup store; the guest keeps running. */
  'backup.create': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId }),
    result: artifactFacts,
  },
  /** Reads the backup back from the store: its size and the checksum of what is really there. */
  'backup.verify': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId }),
    result: artifactFacts,
  },
  /** Writes the backup's content beside the instance's current disk (see `disk.swap`). */
  'backup.restore': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId, restore_id: restoreId }),
    result: artifactFacts,
  },
  'backup.delete': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId }),
    result: z.object({ deleted: z.boolean() }),
  },
  /** A point-in-time image kept beside the disk on the hypervisor. */
  'snapshot.create': {
    params: z.object({ instance_id: instanceId, snapshot_id: artifactId }),
    result: artifactFacts,
  },
  /** Writes the snapshot's content beside the instance's current disk (see `disk.swap`). */
  'snapshot.restore': {
    params: z.object({ instance_id: instanceId, snapshot_id: artifactId, restore_id: restoreId }),
    result: artifactFacts,
  },
  'snapshot.delete': {
    params: z.object({ instance_id: instanceId, snapshot_id: artifactId }),
    result: z.object({ deleted: z.boolean() }),
  },
  /**
   * The restored disk takes the current one's place, which is kept beside it until `disk.release`;
   * a running guest is restarted on it, a stopped one stays stopped.
   */
  'disk.swap': {
    params: z.object({ instance_id: instanceId, restore_id: restoreId }),
    result: z.object({ power_state: powerState, checksum: artifactFacts.shape.checksum }),
  },
  /** Undoes a restore: the disk kept aside is put back if it was swapped out, the restored one dropped. */
  'disk.revert': {
    params: z.object({ instance_id: instanceId, restore_id: restoreId }),
    result: z.object({ reverted: z.boolean() }),
  },
  /** Ends a restore that succeeded: the disk kept aside is dropped. */
  'disk.release': {
    params: z.object({ instance_id: instanceId, restore_id: restoreId }),
    result: z.object({ released: z.boolean() }),
  },
  /** The instance's addresses, all of them, at the panel's revision (see `networkAddress`). */
  'network.apply': {
    params: networkSet.extend({ instance_id: instanceId }),
    result: z.object({ revision: networkRevision }),
  },
  /** The instance's firewall, the toggle and every rule in order, at the panel's revision (as `network.apply`). */
  'firewall.apply': {
    params: firewallSet.extend({ instance_id: instanceId }),
    result: z.object({ revision: networkRevision }),
  },
  /**
   * Grows the instance's root disk to `size_mb` (a running guest sees the new size at once); a disk
   * already that big or bigger is left as it is. Never shrinks: the result is the size it has.
   */
  'disk.resize': {
    params: z.object({ instance_id: instanceId, size_mb: z.number().int().positive() }),
    result: z.object({ size_mb: z.number().int().positive() }),
  },
  /** Touches nothing: proves the whole path panel → agent → driver → panel works. */
  'hypervisor.probe': {
    params: z.object({}),
    result: z.object({ instances: z.number().int().nonnegative() }),
  },
} as const;

export type AgentTaskType = keyof typeof AGENT_TASKS;
export const AGENT_TASK_TYPES = Object.keys(AGENT_TASKS) as AgentTaskType[];
export type AgentTaskParams<T extends AgentTaskType> = z.infer<(typeof AGENT_TASKS)[T]['params']>;
export type AgentTaskResult<T extends AgentTaskType> = z.infer<(typeof AGENT_TASKS)[T]['result']>;

export function isAgentTaskType(type: string): type is AgentTaskType {
  return Object.hasOwn(AGENT_TASKS, type);
}

/**
 * How an agent reports a failed task. `retryable: false` means trying again cannot help (the
 * instance does not exist, the request is invalid); the workflow then stops retrying.
 */
export const AgentTaskFailure = z.strictObject({
  code: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Z0-9_.-]+$/),
  message: text({ max: 2000, multiline: true }),
  retryable: z.boolean().default(true),
});
export type AgentTaskFailure = z.infer<typeof AgentTaskFailure>;

/** The optional message of a progress report. */
export const AgentTaskProgressMessage = text({ max: 500, min: 0, multiline: true });

/** A completed report's result as stored (jsonb), before its task type's own result schema. */
export const AgentTaskResultBody = storableJsonObject({ maxLength: 65_536 });

/** Failure codes the panel itself gives a task attempt. */
export const PANEL_TASK_FAILURES = {
  invalidResult: 'AGENT_RESULT_INVALID',
  invalidParams: 'AGENT_TASK_PARAMS_INVALID',
  /** No agent of the hypervisor took the task within AGENT_TASK_PICKUP_TIMEOUT_MS. */
  notPickedUp: 'AGENT_TASK_NOT_PICKED_UP',
  /** An administrator cancelled the task before an agent took it. */
  cancelledByProvider: 'CANCELLED_BY_PROVIDER',
} as const;

import { z } from 'zod';
import { BOOT_DEVICES, POWER_ACTIONS } from '../instances/statuses.js';
import { USER_DATA_KINDS, USER_DATA_MAX_SEALED } from '../instances/user-data.js';
import { firewallSet, GuestAddresses } from './network.js';
import { artifactFacts, artifactId, bootedRoom, instanceId, powerState, revision } from './shapes.js';

/**
 * The guest's root password. The panel seals it (platform/secrets.ts) in workflow histories and
 * task rows and opens it only when it hands the task to the agent.
 */
const rootPassword = z.string().min(1).max(512);
/** OpenSSH public keys (`type base64 comment`), as validated when the customer added them. */
const sshKeys = z.array(z.string().min(1).max(16_384)).max(100);
/**
 * The customer's own user-data, given to the guest beside the panel's (docs/qemu.md "The
 * customer's user-data"). `content` is sealed as the password is until the agent takes the task;
 * the agent receives the text the customer gave, at most USER_DATA_MAX_BYTES.
 */
const userData = z.object({
  kind: z.enum(USER_DATA_KINDS),
  content: z.string().min(1).max(USER_DATA_MAX_SEALED),
});
/** The most a guest may grow to while it runs (domain/instances/hot-resize.ts). */
const ceiling = z.object({ cpu_cores: z.number().int().positive(), memory_mb: z.number().int().positive() });

/**
 * What the hypervisor gives the guest for its first boot (a cloud-init NoCloud seed on the QEMU
 * driver). `addresses` came later than the rest: a task without it leaves the guest to DHCP;
 * `user_data` later still: a task without it gives the guest the panel's data alone.
 */
const guestSetup = {
  hostname: z.string().min(1).max(253),
  timezone: z.string().min(1).max(64),
  root_password: rootPassword,
  ssh_keys: sshKeys,
  addresses: GuestAddresses.optional(),
  user_data: userData.optional(),
};

/** An instance's life on its hypervisor: create, power, rebuild, delete, its password. */
export const INSTANCE_TASKS = {
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
      /** Room to grow while running; absent: none (any resize is cold). */
      ceiling: ceiling.optional(),
    }),
    /**
     * `firewall_revision`: the firewall's revision, when the hypervisor applies the one it was given;
     * `ceiling`: the room the guest was booted with, when the hypervisor can grow a running guest.
     */
    result: z.object({
      power_state: powerState,
      firewall_revision: revision.optional(),
      ceiling: ceiling.optional(),
    }),
  },
  'instance.power': {
    params: z.object({ instance_id: instanceId, action: z.enum(POWER_ACTIONS) }),
    result: z.object({ power_state: powerState, ...bootedRoom }),
  },
  /**
   * Touches nothing: the guest's power state as the hypervisor sees it. The panel asks it where an
   * ending must not assume the guest's state (a migration rolled back, or a recovery decided).
   */
  'instance.state': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({
      power_state: powerState,
      /**
       * A live move of the guest out of this host is under way (its memory still going, or being
       * cancelled): where it will run is not settled yet. Absent: none (and from older agents).
       */
      moving_out: z.boolean().optional(),
    }),
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
  /** The guest restarted into its image's rescue system, its own disk attached; already there: nothing. */
  'rescue.enter': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({ power_state: powerState, ...bootedRoom }),
  },
  /** The guest restarted from its own disk again; already so: nothing. It runs after. */
  'rescue.exit': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({ power_state: powerState, ...bootedRoom }),
  },
  /**
   * A plan change. `hot`: the running guest gets the vCPUs and memory added (growth only, within
   * the ceiling it was booted with; else refused with `HOT_RESIZE_REFUSED`, nothing changed).
   * `cold`: the guest is stopped if it runs, given the new size and `ceiling`, and started again if
   * it ran. Repeated, it finds the size already there and changes nothing. The result is what the
   * hypervisor now holds.
   */
  'instance.resize': {
    params: z.object({
      instance_id: instanceId,
      cpu_cores: z.number().int().positive(),
      memory_mb: z.number().int().positive(),
      mode: z.enum(['hot', 'cold']),
      /** The room a cold resize boots the guest with; absent: none. Ignored by a hot one. */
      ceiling: ceiling.optional(),
    }),
    result: z.object({
      power_state: powerState,
      cpu_cores: z.number().int().positive(),
      memory_mb: z.number().int().positive(),
      applied: z.enum(['hot', 'cold']),
      ceiling: ceiling.optional(),
    }),
  },
  'instance.set_password': {
    params: z.object({ instance_id: instanceId, root_password: rootPassword }),
    result: z.object({ changed: z.boolean() }),
  },
} as const;

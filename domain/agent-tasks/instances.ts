import { z } from 'zod';
import { BOOT_DEVICES, POWER_ACTIONS } from '../instances/statuses.js';
import { firewallSet, GuestAddresses } from './network.js';
import { artifactFacts, artifactId, instanceId, powerState, revision } from './shapes.js';

/**
 * The guest's root password. The panel seals it (platform/secrets.ts) in workflow histories and
 * task rows and opens it only when it hands the task to the agent.
 */
const rootPassword = z.string().min(1).max(512);
/** OpenSSH public keys (`type base64 comment`), as validated when the customer added them. */
const sshKeys = z.array(z.string().min(1).max(16_384)).max(100);

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
    }),
    /** `firewall_revision`: the firewall's revision, when the hypervisor applies the one it was given. */
    result: z.object({ power_state: powerState, firewall_revision: revision.optional() }),
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
  /** The guest restarted into its image's rescue system, its own disk attached; already there: nothing. */
  'rescue.enter': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({ power_state: powerState }),
  },
  /** The guest restarted from its own disk again; already so: nothing. It runs after. */
  'rescue.exit': {
    params: z.object({ instance_id: instanceId }),
    result: z.object({ power_state: powerState }),
  },
  'instance.set_password': {
    params: z.object({ instance_id: instanceId, root_password: rootPassword }),
    result: z.object({ changed: z.boolean() }),
  },
} as const;

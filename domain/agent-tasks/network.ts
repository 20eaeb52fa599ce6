import { z } from 'zod';
import {
  FIREWALL_ACTIONS,
  FIREWALL_DIRECTIONS,
  FIREWALL_PROTOCOLS,
  FIREWALL_RULES_CEILING,
} from '../networks/firewall.js';
import { PRIVATE_NICS_PER_INSTANCE } from '../networks/private-networks.js';
import { instanceId, revision } from './shapes.js';

// The instance's network and firewall: what the hypervisor applies, whole, at a revision.

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
/** A NIC on one of the customer's private networks: a bridge of its own, no gateway. */
const privateNic = z.object({
  network_id: z.string().uuid(),
  mac: z.string().regex(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/),
  address: z.string().min(7).max(15),
  prefix: z.number().int().min(16).max(29),
});

/** The instance's whole network at a revision: what `network.apply` and a migration's target get. */
export const networkSet = z.object({
  revision,
  addresses: z.array(networkAddress).max(NETWORK_ADDRESSES_MAX),
  // Private networks came after the first network.apply: a task without them has none.
  nics: z.array(privateNic).max(PRIVATE_NICS_PER_INSTANCE).default([]),
});

/** The instance's firewall at a revision, the toggle and every rule in order. */
export const firewallSet = z.object({
  revision,
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

export const NETWORK_TASKS = {
  /** The instance's addresses, all of them, at the panel's revision (see `networkAddress`). */
  'network.apply': {
    params: networkSet.extend({ instance_id: instanceId }),
    result: z.object({ revision }),
  },
  /** The instance's firewall, the toggle and every rule in order, at the panel's revision (as `network.apply`). */
  'firewall.apply': {
    params: firewallSet.extend({ instance_id: instanceId }),
    result: z.object({ revision }),
  },
} as const;

import type { Verdict } from '../errors.js';

/**
 * An instance's addresses (SPEC.md §4 "network/ips"): the primary of each family it was created
 * with, extra ones a customer attaches from the location's pools, and floating ones. One set of
 * rules for the Client API, the workflows and the Application API.
 */

/** An address between the request and its hypervisor's confirmation is `attaching` or `detaching`. */
export const ADDRESS_STATES = ['attaching', 'attached', 'detaching'] as const;
export type AddressState = (typeof ADDRESS_STATES)[number];

export const ADDRESS_FAMILIES = [4, 6] as const;
export type AddressFamily = (typeof ADDRESS_FAMILIES)[number];

export type AddressKind = 'fixed' | 'floating';

/**
 * A change to an instance's network, carried by its operation's workflow: the rows it names are
 * written before the workflow starts; the workflow applies the whole network, then settles the
 * change or reverts it.
 */
export type NetworkChange =
  | { readonly kind: 'address_attach'; readonly addressId: string }
  | { readonly kind: 'address_detach'; readonly addressId: string }
  | { readonly kind: 'address_promote'; readonly addressId: string; readonly previousId: string | null }
  | { readonly kind: 'floating_ip_attach'; readonly addressId: string }
  | { readonly kind: 'floating_ip_detach'; readonly addressId: string }
  | {
      readonly kind: 'floating_ip_move';
      readonly addressId: string;
      /** The instance it leaves, and its hypervisor: given its network without the address first. */
      readonly from: { readonly instanceId: string; readonly hypervisorId: string };
    }
  // The instance joins or leaves a private network through its NIC (domain/networks/private-networks.ts).
  | { readonly kind: 'network_attach'; readonly nicId: string }
  | { readonly kind: 'network_detach'; readonly nicId: string };

/** What the rules read of an address. */
export interface AddressFacts {
  readonly kind: AddressKind;
  readonly is_primary: boolean;
  readonly state: AddressState;
}

const settling = (address: AddressFacts): Verdict | undefined =>
  address.state === 'attached'
    ? undefined
    : {
        ok: false,
        code: 'SVC-CONFLICT-409',
        detail: `The address is ${address.state}; try again once its change has ended.`,
      };

/** Whether the address may be detached from its instance. */
export function mayDetach(address: AddressFacts): Verdict {
  if (address.is_primary)
    return {
      ok: false,
      code: 'SVC-IP-PRIMARY-409',
      detail: 'The primary address cannot be detached; promote another address of its family first.',
    };
  if (address.kind === 'floating')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'A floating IP is detached through /floating-ips/{cloudIpAddress}/detach; it stays yours.',
    };
  return settling(address) ?? { ok: true };
}

/** Whether the address may become its instance's primary address of its family. */
export function mayPromote(address: AddressFacts): Verdict {
  if (address.kind === 'floating')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'A floating IP moves between instances, so it cannot be an instance’s primary address.',
    };
  return settling(address) ?? { ok: true };
}

/** A floating IP as its owner sees it: on no instance it is `idle`. */
export type FloatingIpStatus = 'idle' | AddressState;

export const floatingIpStatus = (address: {
  instance_id: string | null;
  state: AddressState;
}): FloatingIpStatus => (address.instance_id === null ? 'idle' : address.state);

/**
 * Whether a floating IP may go onto `target` (an attach, or a move): it must be settled, in the
 * instance's location, and not there already (`already`: nothing to do).
 */
export function mayPlaceFloatingIp(
  address: { instance_id: string | null; state: AddressState; location_id: string },
  target: { id: string; location_id: string },
  action: 'attach' | 'move',
): Verdict | { ok: true; already: true } {
  if (address.instance_id === target.id && address.state === 'attached') return { ok: true, already: true };
  if (address.state !== 'attached')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The floating IP is ${address.state}; try again once it is settled.`,
    };
  if (address.location_id !== target.location_id)
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The floating IP belongs to another location than the instance.',
    };
  if (action === 'attach' && address.instance_id !== null)
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The floating IP is on another instance; move it instead.',
    };
  if (action === 'move' && address.instance_id === null)
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The floating IP is on no instance; attach it instead.',
    };
  return { ok: true };
}

/**
 * Whether a floating IP may leave the instance it is on for another (a move): not while that
 * instance is being migrated (its hypervisor is changing) or deleted.
 */
export function mayLeave(source: { status: string }): Verdict {
  if (source.status === 'migrating')
    return {
      ok: false,
      code: 'INSTANCE_MIGRATING',
      detail: 'The instance the floating IP is on is being migrated; move it once the migration ends.',
    };
  if (source.status === 'deleting' || source.status === 'deleted')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The instance the floating IP is on is being deleted; it is idle once it is gone.',
    };
  return { ok: true };
}

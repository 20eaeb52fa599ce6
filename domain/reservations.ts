// What the plane holds for whom: room on a hypervisor, and addresses of a pool.

/**
 * Why room is held: an instance's own place, a migration's place on its target until it commits,
 * a volume's disk on the hypervisor it is kept on, or a storage move's new copies beside the old
 * ones until those are removed.
 */
export const RESERVATION_PURPOSES = ['instance', 'migration', 'volume', 'storage_move'] as const;
export type ReservationPurpose = (typeof RESERVATION_PURPOSES)[number];

/** `active` counts against the hypervisor's free room; `released` and `expired` no longer do. */
export const RESERVATION_STATES = ['active', 'released', 'expired'] as const;
export type ReservationState = (typeof RESERVATION_STATES)[number];

/** Who holds an address: an instance it is on, or an account it was given to (a floating address). */
export const ADDRESS_HOLDERS = ['instance', 'user'] as const;
export type AddressHolder = (typeof ADDRESS_HOLDERS)[number];

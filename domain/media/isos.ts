// A customer's ISO images of an instance: fetched by its hypervisor's agent from a URL, then
// mounted as its CD-ROM or booted from.

/** `fetching` while the agent downloads it; `available` once it has it; `failed` with the reason. */
export const ISO_STATES = ['fetching', 'available', 'failed'] as const;
export type IsoState = (typeof ISO_STATES)[number];

import type { ImageHostState } from './image-versions.js';

// A deleted image version's copies leaving the hypervisors (docs/api.md "Deleted versions' copies").

/**
 * A copy's removal: `pending` until its hypervisor is asked (one offline is asked when it comes
 * back), `removing` while it is, `removed` once the copy is gone from its store, `blocked` while a
 * guest there still boots from it (the agent's IMAGE_IN_USE; asked again by the sweep). A removal
 * that failed otherwise is `pending` again, with its `error`.
 */
export const IMAGE_REMOVAL_STATES = ['pending', 'removing', 'removed', 'blocked'] as const;
export type ImageRemovalState = (typeof IMAGE_REMOVAL_STATES)[number];

/** The removal states a run may ask the hypervisor from: every one but `removed`. */
export const OUTSTANDING_REMOVAL_STATES = [
  'pending',
  'removing',
  'blocked',
] as const satisfies readonly ImageRemovalState[];

/**
 * The copies a version's delete removes: those that hold the disk, or may hold part of it (a fetch
 * under way, or one that failed and left something). A `pending` copy was never fetched.
 */
export const COPY_STATES_TO_REMOVE = [
  'fetching',
  'ready',
  'failed',
] as const satisfies readonly ImageHostState[];

/** The agent's code for a copy a guest of its hypervisor still uses. */
export const IMAGE_IN_USE = 'IMAGE_IN_USE';

/** What a failed removal becomes: `blocked` while a guest uses the copy, `pending` to be tried again otherwise. */
export const removalStateAfter = (failureCode: string): Extract<ImageRemovalState, 'pending' | 'blocked'> =>
  failureCode === IMAGE_IN_USE ? 'blocked' : 'pending';

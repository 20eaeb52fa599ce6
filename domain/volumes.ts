import type { Verdict } from './errors.js';

// A customer's volume: a disk of its own, in one location, attached to at most one of the
// customer's instances there at a time.

/**
 * `available`: on no instance (on its hypervisor, or nowhere yet); `attaching`, `detaching`,
 * `resizing`: an operation of its instance is changing it; `attached`: on its instance;
 * `deleting`: its hypervisor is removing its disk, and then it is gone.
 */
export const VOLUME_STATES = [
  'available',
  'attaching',
  'attached',
  'detaching',
  'resizing',
  'deleting',
] as const;
export type VolumeState = (typeof VOLUME_STATES)[number];

/** Volumes one instance has at once: the slots its guest keeps for them. */
export const VOLUMES_PER_INSTANCE = 8;

/** The smallest volume, in MB. */
export const VOLUME_MIN_MB = 1024;

/**
 * Whether a volume may be made `sizeMb` big: at least VOLUME_MIN_MB, at most the provider's
 * largest (VOLUME_MAX_SIZE_MB), in whole MB.
 */
export function checkVolumeSize(sizeMb: number, maxMb: number): Verdict {
  if (sizeMb < VOLUME_MIN_MB)
    return { ok: false, code: 'SVC-REQ-400', detail: `A volume has at least ${VOLUME_MIN_MB} MB.` };
  if (sizeMb > maxMb)
    return { ok: false, code: 'SVC-QUOTA-409', detail: `A volume has at most ${maxMb} MB.` };
  return { ok: true };
}

/** Whether a volume may grow to `requestedMb`: sizes only grow. `unchanged` at the size it has. */
export function checkVolumeGrow(
  currentMb: number,
  requestedMb: number,
  maxMb: number,
): Verdict | 'unchanged' {
  if (requestedMb === currentMb) return 'unchanged';
  if (requestedMb < currentMb)
    return { ok: false, code: 'SVC-REQ-400', detail: `A volume only grows: this one has ${currentMb} MB.` };
  return checkVolumeSize(requestedMb, maxMb);
}

/** What an attach asks: the volume's place and the instance's. */
export interface AttachFacts {
  readonly volumeState: VolumeState;
  readonly volumeInstanceId: string | null;
  /** The hypervisor the volume is on; null while it was never attached. */
  readonly volumeHypervisorId: string | null;
  readonly volumeLocationId: string;
  readonly volumeBackend: string;
  readonly instanceId: string;
  readonly instanceHypervisorId: string;
  readonly instanceLocationId: string;
  /** The storage backends the instance's hypervisor has. */
  readonly hypervisorBackends: readonly string[];
}

/**
 * Whether the volume may attach to the instance: `unchanged` when it is on it already. A volume
 * goes only to an instance in its location, on a hypervisor with its backend; once made, it lives
 * on its hypervisor (a local disk), so it attaches only to instances there.
 */
export function mayAttachVolume(facts: AttachFacts): Verdict | 'unchanged' {
  if (facts.volumeInstanceId === facts.instanceId && facts.volumeState === 'attached') return 'unchanged';
  if (facts.volumeState === 'attached')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The volume is attached to another instance; detach it first.',
    };
  if (facts.volumeState !== 'available')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The volume is ${facts.volumeState}; try again once its change has ended.`,
    };
  if (facts.volumeLocationId !== facts.instanceLocationId)
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The instance is in another location than the volume.',
    };
  if (!facts.hypervisorBackends.includes(facts.volumeBackend))
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The instance’s hypervisor has no ${facts.volumeBackend} storage for the volume.`,
    };
  if (facts.volumeHypervisorId !== null && facts.volumeHypervisorId !== facts.instanceHypervisorId)
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The volume is kept on another hypervisor than the instance’s; it attaches to instances there.',
    };
  return { ok: true };
}

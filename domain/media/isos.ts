import { ERROR_CATALOGUE, type Verdict } from '../errors.js';
import { text } from '../input-bounds.js';
import type { InstanceOperation } from '../instances/operation-kinds.js';

// A customer's ISO images of an instance: fetched by its hypervisor's agent from a URL, then
// mounted as its CD-ROM or booted from.

/**
 * `fetching` while the agent downloads it; `available` once it has it; `failed` with the reason;
 * `deleting` while its hypervisor removes its file (then it is gone).
 */
export const ISO_STATES = ['fetching', 'available', 'failed', 'deleting'] as const;
export type IsoState = (typeof ISO_STATES)[number];

/** An ISO's name, unique in its library: on the add and on a rename alike. */
export const ISO_NAME_MAX = 64;
export const isoName = () => text({ max: ISO_NAME_MAX, trim: true });

/** The operations that change what an instance's CD-ROM drive holds. */
const DRIVE_OPERATIONS: readonly InstanceOperation[] = ['iso_mount', 'iso_unmount', 'iso_boot'];

/**
 * Whether an ISO may be removed from its library now. Not while it is in the drive, nor while an
 * operation may be putting one there (it could be this one); not while its fetch may still write
 * its file, nor twice at once.
 */
export function mayDeleteIso(
  iso: { readonly state: IsoState; readonly mounted: boolean },
  runningOperation: InstanceOperation | null,
): Verdict {
  if (iso.mounted) return { ok: false, code: 'ISO_MOUNTED', detail: ERROR_CATALOGUE.ISO_MOUNTED.detail };
  if (runningOperation !== null && DRIVE_OPERATIONS.includes(runningOperation))
    return {
      ok: false,
      code: 'SVC-OP-409',
      detail: 'The instance’s CD-ROM drive is changing; try again once that operation has ended.',
    };
  if (iso.state === 'fetching')
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The ISO is still being fetched; delete it once its fetch has ended.',
    };
  if (iso.state === 'deleting')
    return { ok: false, code: 'SVC-CONFLICT-409', detail: 'The ISO is being deleted already.' };
  return { ok: true };
}

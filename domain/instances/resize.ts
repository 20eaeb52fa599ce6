import type { Resources } from '../capacity.js';
import type { Verdict } from '../errors.js';
import { fits, type PlacementCandidate, placementFor, shortfallOf } from '../placement.js';
import type { GroupSpread } from '../placement-groups.js';
import { type HotplugCeiling, type ResizeMode, resizeMode } from './hot-resize.js';

/**
 * Plan changes (docs/api.md "Plan changes"): the rules that decide whether an instance may take a
 * new size, how it reaches the guest, and where the room comes from. Each returns a verdict and
 * throws nothing; the service asks them in the order a caller can act on.
 */

/** The plan a change names, as the rules need it. */
export interface PlanOffer {
  readonly code: string;
  readonly is_public: boolean;
  /** null: offered in every location. */
  readonly location_id: string | null;
  /** Customers move between public plans of one group; null: none. */
  readonly resize_group: string | null;
}

/**
 * Whether the asker may move the instance onto `plan`: a customer only to a public plan (one not
 * offered reads as unknown) of the same resize group as the plan the instance has; anyone only to
 * a plan of the instance's location. An administrator's choice is not held to the groups.
 */
export function checkPlanChange(
  plan: PlanOffer | undefined,
  instance: { readonly location_id: string; readonly plan: PlanOffer | null },
  asker: 'customer' | 'operator',
): Verdict {
  if (!plan || (asker === 'customer' && !plan.is_public))
    return { ok: false, code: 'RESIZE_PLAN_UNKNOWN', detail: 'No plan of that code is offered.' };
  if (plan.location_id !== null && plan.location_id !== instance.location_id)
    return {
      ok: false,
      code: 'RESIZE_PLAN_OTHER_LOCATION',
      detail: `Plan ${plan.code} is not offered in the instance’s location.`,
    };
  if (asker === 'customer' && plan.code !== instance.plan?.code) {
    const group = instance.plan?.resize_group ?? null;
    if (group === null || plan.resize_group !== group)
      return {
        ok: false,
        code: 'RESIZE_PLAN_NOT_ALLOWED',
        detail: instance.plan
          ? `Plan ${instance.plan.code} cannot be changed to plan ${plan.code}; ask the provider.`
          : 'The instance has no plan a customer may change; ask the provider.',
      };
  }
  return { ok: true };
}

/**
 * Whether the sizes may change from `from` to `to`: a disk never shrinks (its file system and
 * partitions would be cut); `unchanged` when nothing would change.
 */
export function checkSizeChange(from: Resources, to: Resources): Verdict | 'unchanged' {
  if (to.disk_mb < from.disk_mb)
    return {
      ok: false,
      code: 'RESIZE_DISK_SHRINK',
      detail: `A disk never shrinks: this one has ${from.disk_mb} MB, the new size ${to.disk_mb} MB.`,
    };
  if (to.cpu_cores === from.cpu_cores && to.memory_mb === from.memory_mb && to.disk_mb === from.disk_mb)
    return 'unchanged';
  return { ok: true };
}

/**
 * The room a change adds to what the instance holds on its host: each resource that grows, by its
 * growth. A shrink keeps holding the larger size until the change has settled, so a failure that
 * leaves the guest as it was never finds its room given away.
 */
export const growthOf = (from: Resources, to: Resources): Resources => ({
  cpu_cores: Math.max(0, to.cpu_cores - from.cpu_cores),
  memory_mb: Math.max(0, to.memory_mb - from.memory_mb),
  disk_mb: Math.max(0, to.disk_mb - from.disk_mb),
});

/** The larger of the two sizes per resource: what the instance holds while the change runs. */
export const heldDuring = (from: Resources, to: Resources): Resources => ({
  cpu_cores: Math.max(from.cpu_cores, to.cpu_cores),
  memory_mb: Math.max(from.memory_mb, to.memory_mb),
  disk_mb: Math.max(from.disk_mb, to.disk_mb),
});

/** What shrinks, by resource name (a disk never does). */
export const shrinksOf = (from: Resources, to: Resources): ('cpu_cores' | 'memory_mb')[] =>
  (['cpu_cores', 'memory_mb'] as const).filter((r) => to[r] < from[r]);

/** Where the room for a change comes from. */
export type ResizeRoom =
  | { readonly kind: 'fits' }
  /** The instance's host lacks it; `target` is the hypervisor of its location that fits the new size best. */
  | { readonly kind: 'move'; readonly shortfall: string[]; readonly target: PlacementCandidate }
  /** Neither its host nor any other of its location has it. */
  | { readonly kind: 'none'; readonly shortfall: string[] };

/**
 * Whether the instance's host takes the growth; if not, the best other hypervisor of the location
 * for the whole new size (placement's order: most memory left first).
 */
export function roomFor(
  host: PlacementCandidate,
  others: readonly PlacementCandidate[],
  from: Resources,
  to: Resources,
  /** Its placement group (docs/api.md "Placement groups"): a move goes where placement would put it. */
  group: GroupSpread | null = null,
): ResizeRoom {
  const growth = growthOf(from, to);
  if (fits(host, growth)) return { kind: 'fits' };
  const shortfall = shortfallOf(host, growth);
  const elsewhere = placementFor(
    others.filter((c) => c.id !== host.id),
    to,
    group,
  );
  if (!elsewhere.ok) return { kind: 'none', shortfall };
  const target = others.find((c) => c.id === elsewhere.hypervisorIds[0])!;
  return { kind: 'move', shortfall, target };
}

/** How the change reaches the guest (domain/instances/hot-resize.ts): hot or cold, and why not hot. */
export function howApplied(
  from: Resources,
  to: Resources,
  ceiling: HotplugCeiling | null,
  running: boolean,
): { mode: ResizeMode; reasons: string[] } {
  // Only the disk changes: the guest's vCPUs and memory are not touched, and the disk grows under
  // a running guest as a root disk grow does.
  if (to.cpu_cores === from.cpu_cores && to.memory_mb === from.memory_mb) return { mode: 'hot', reasons: [] };
  return resizeMode(from, to, ceiling, running);
}

/**
 * Whether a change that needs a move may make one: an administrator's when asked
 * (`allow_move`), a customer's when asked and the provider lets customers' changes move
 * (RESIZE_CUSTOMER_MOVES).
 */
export function mayMove(asker: 'customer' | 'operator', asked: boolean, customersMay: boolean): boolean {
  return asked && (asker === 'operator' || customersMay);
}

import type { Verdict } from './errors.js';

/**
 * How a placement group spreads its members over hypervisors (docs/api.md "Placement groups"):
 * `spread` never puts two on one hypervisor, and refuses when every host that could take the
 * instance holds a member; `spread_soft` prefers a host without one and takes any when none is
 * free of members. The rule itself is placement's (domain/placement.ts `placementFor`).
 */
export const PLACEMENT_POLICIES = ['spread', 'spread_soft'] as const;
export type PlacementPolicy = (typeof PLACEMENT_POLICIES)[number];

/** A group as placement sees it: its policy and the hypervisors its other members hold. */
export interface GroupSpread {
  readonly policy: PlacementPolicy;
  /** Hypervisors another live member is on, or holds a reservation on (a move under way). */
  readonly memberHosts: readonly string[];
}

/** Whether the group forbids the hypervisor outright: `spread`, and another member holds it. */
export const groupForbids = (group: GroupSpread | null, hypervisorId: string): boolean =>
  group?.policy === 'spread' && group.memberHosts.includes(hypervisorId);

/** Whether the group would rather not use the hypervisor: another member holds it (any policy). */
export const groupHolds = (group: GroupSpread | null, hypervisorId: string): boolean =>
  group?.memberHosts.includes(hypervisorId) ?? false;

/** A group is deleted empty only: its members would lose the promise it made them. */
export function mayDeletePlacementGroup(members: number): Verdict {
  if (members > 0)
    return {
      ok: false,
      code: 'SVC-INUSE-409',
      detail: `${members} instance${members === 1 ? ' is' : 's are'} in the placement group; delete ${members === 1 ? 'it' : 'them'} first.`,
    };
  return { ok: true };
}

import type { Verdict } from '../errors.js';
import type { Finding } from '../moves/preflight.js';
import {
  ACTIVE_EVACUATION_STATES,
  type EvacuationItemState,
  type EvacuationKind,
  type EvacuationState,
} from './states.js';

/**
 * A restore brings home the instances a hypervisor's evacuation moved, once the node is back (it
 * lists the others too, each left with why): a
 * run of its own (kind `restore`, linked to the evacuation), with a policy, pause, resume and cancel
 * as a drain has, whose moves go to one target, the home node.
 */

/**
 * Whether the evacuation's instances may be brought home now: a hypervisor's evacuation that has
 * ended having run (completed or cancelled), and its node online and out of maintenance. A restore
 * already under way is refused by the one-run-per-node rule (EVACUATION_RUNNING).
 */
export function mayRestore(
  evacuation: { readonly kind: EvacuationKind; readonly state: EvacuationState },
  home: { readonly name: string; readonly maintenance: boolean; readonly status: string },
): Verdict {
  if (evacuation.kind !== 'hypervisor')
    return {
      ok: false,
      code: 'EVACUATION_NOT_RESTORABLE',
      detail: `A ${evacuation.kind === 'backend' ? 'backend drain' : 'restore'} cannot be restored; only a hypervisor’s evacuation can.`,
    };
  if (ACTIVE_EVACUATION_STATES.includes(evacuation.state))
    return {
      ok: false,
      code: 'EVACUATION_NOT_FINISHED',
      detail: `The evacuation is ${evacuation.state}; its instances can be brought home once it has ended.`,
    };
  if (evacuation.state === 'failed')
    return {
      ok: false,
      code: 'EVACUATION_NOT_RESTORABLE',
      detail: 'The evacuation failed to start and moved nothing.',
    };
  if (home.maintenance)
    return {
      ok: false,
      code: 'HYPERVISOR_IN_MAINTENANCE',
      detail: `${home.name} is still in maintenance; take it out of maintenance first.`,
    };
  if (home.status !== 'online')
    return {
      ok: false,
      code: 'HYPERVISOR_NOT_ONLINE',
      detail: `${home.name} is ${home.status}; its agent must be online to take its instances back.`,
    };
  return { ok: true };
}

/** Where an instance of the restore stands before its move: deleted, at home already, or elsewhere. */
export interface RestoreeFacts {
  /** Its hypervisor now; undefined when it was deleted. */
  readonly at: string | null | undefined;
  readonly home: string;
  /** The hypervisor the evacuation moved it to; null when the evacuation did not move it. */
  readonly leftOn: string | null;
  /** How the evacuation left one it did not move: its item's state and first reason's code. */
  readonly notMoved?: { readonly state: string; readonly code: string | null } | undefined;
}

/**
 * An instance the restore leaves where it is, with why; undefined when it waits on the host the
 * evacuation put it on, to be judged by the migration preflight. One already home is `moved`;
 * one deleted, one the evacuation never moved (`NOT_MOVED`, with how the evacuation left it), or one
 * moved elsewhere since, is left (`cancelled`) with its reason.
 */
export function restoreeSkipped(
  facts: RestoreeFacts,
): { state: EvacuationItemState; reasons: Finding<string>[] } | undefined {
  if (facts.at === undefined)
    return {
      state: 'cancelled',
      reasons: [{ code: 'INSTANCE_DELETED', detail: 'The instance was deleted.' }],
    };
  // Never moved (its move failed or was blocked, or the drain was cancelled first): nothing to bring home.
  if (facts.leftOn === null) {
    const how = facts.notMoved;
    const why = how ? ` (${how.state}${how.code ? `: ${how.code}` : ''})` : '';
    return {
      state: 'cancelled',
      reasons: [
        {
          code: 'NOT_MOVED',
          detail: `The evacuation did not move the instance${why}; it is left where it is.`,
        },
      ],
    };
  }
  if (facts.at === facts.home)
    return {
      state: 'moved',
      reasons: [{ code: 'ALREADY_HOME', detail: 'The instance is on its home hypervisor already.' }],
    };
  if (facts.at !== facts.leftOn)
    return {
      state: 'cancelled',
      reasons: [
        {
          code: 'MOVED_SINCE',
          detail: 'The instance left the hypervisor the evacuation moved it to; it is left where it is.',
        },
      ],
    };
  return undefined;
}

import {
  type EvacuationItemRow,
  listEvacuationCounts,
  listEvacuationItems,
} from '../../db/repositories/moves/evacuation-items.js';
import type { EvacuationRow } from '../../db/repositories/moves/evacuations.js';
import type { EvacuationItemState } from '../../domain/evacuations/states.js';
import type { ServiceDeps } from '../context.js';
import { getEvacuation } from './control.js';

/** One evacuation as it is shown alone: with its progress and each of its instances. */
export interface ShownEvacuation {
  readonly evacuation: EvacuationRow;
  readonly counts: Partial<Record<EvacuationItemState, number>>;
  readonly items: readonly EvacuationItemRow[];
}

/** Reads one evacuation as the admin API's show and the operator commands print it. */
export async function showEvacuation(
  deps: Pick<ServiceDeps, 'db'>,
  evacuationId: string,
): Promise<ShownEvacuation> {
  const evacuation = await getEvacuation(deps, evacuationId);
  const [counts, items] = await Promise.all([
    listEvacuationCounts(deps.db, [evacuationId]),
    listEvacuationItems(deps.db, evacuationId),
  ]);
  return { evacuation, counts: countsOf(counts, evacuationId), items };
}

export const countsOf = (
  rows: readonly { evacuation_id: string; state: EvacuationItemState; count: number }[],
  evacuationId: string,
): Partial<Record<EvacuationItemState, number>> =>
  Object.fromEntries(rows.filter((r) => r.evacuation_id === evacuationId).map((r) => [r.state, r.count]));

import { listEvacuationCounts, listEvacuationItems } from '../../../db/repositories/evacuation-items.js';
import type { EvacuationItemState } from '../../../domain/evacuations/states.js';
import type { ServiceDeps } from '../../../services/context.js';
import { getEvacuation } from '../../../services/evacuations/control.js';
import { serializeEvacuation } from '../../serializers/evacuation.js';

/** One evacuation as it is shown alone: with its progress and each of its instances. */
export async function shownEvacuation(deps: Pick<ServiceDeps, 'db'>, evacuationId: string) {
  const evacuation = await getEvacuation(deps, evacuationId);
  const [counts, items] = await Promise.all([
    listEvacuationCounts(deps.db, [evacuationId]),
    listEvacuationItems(deps.db, evacuationId),
  ]);
  return serializeEvacuation(evacuation, countsOf(counts, evacuationId), items);
}

export const countsOf = (
  rows: readonly { evacuation_id: string; state: EvacuationItemState; count: number }[],
  evacuationId: string,
): Partial<Record<EvacuationItemState, number>> =>
  Object.fromEntries(rows.filter((r) => r.evacuation_id === evacuationId).map((r) => [r.state, r.count]));

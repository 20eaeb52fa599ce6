import {
  findLastAssignedSeq,
  findPrunedThrough,
  listEventsAfter,
} from '../../db/repositories/events/outbox-reads.js';
import { ApiError } from '../../domain/errors.js';
import type { EventFilter } from '../../domain/events/filter.js';
import type { EventStreamDeps } from './open-stream.js';

/**
 * One page of events for those who poll (docs/events.md "The list"): after `after` (from the start
 * of what is kept without it), oldest first, never past the horizon, so a poller that passes each
 * page's `nextAfter` back misses nothing and sees nothing twice. `nextAfter` is the last event's
 * `seq`, or the horizon when the page reached it: a filtered poller does not read the same gap
 * again.
 */
export async function listEventPage(
  deps: EventStreamDeps,
  filter: EventFilter,
  page: { readonly after: number | undefined; readonly limit: number },
) {
  const { db, events } = deps;
  await events.ready();
  const horizon = events.horizon;
  const after = page.after ?? 0;
  // Every seq up to the horizon was assigned: only one beyond it needs the sequence read.
  if (page.after !== undefined && page.after > horizon && page.after > (await findLastAssignedSeq(db))) {
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'after', detail: 'after: No event has this seq; pass a next_after this API gave.' }],
    });
  }
  const rows = await listEventsAfter(db, { after, through: horizon, limit: page.limit + 1 }, filter);
  // Read after the rows: a sweep that deleted any of them had moved the floor by then.
  if (page.after !== undefined && (await findPrunedThrough(db)) > page.after)
    throw new ApiError('SVC-EVENT-410');
  const hasMore = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const nextAfter = hasMore ? shown.at(-1)!.seq : Math.max(horizon, after);
  return { rows: shown, nextAfter, hasMore };
}

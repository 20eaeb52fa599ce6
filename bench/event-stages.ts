import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** Medians of where a delivery's time went, ms: what the bench's change → delivered is made of. */
export interface EventStages {
  readonly deliveries: number;
  /** The change's commit (its event's `occurred_at`) to the relay's pass that made its delivery. */
  readonly toRelayed: number;
  /** The delivery made to its hand-over to its stream's run (one `signalWithStart` after another). */
  readonly toHandedOver: number;
  /** The hand-over to its first attempt's start: the run's workflow task and the activity's. */
  readonly toAttempt: number;
  /** The POST itself, as the delivery log has it. */
  readonly post: number;
}

/** The stages of the endpoint's deliveries whose events occurred after `since`, each delivery's first attempt. */
export async function eventStages(db: Database, since: Date): Promise<EventStages> {
  const { rows } = await sql<EventStages>`
    with firsts as (
      select ev.occurred_at, d.created_at, d.handed_over_at, a.attempted_at, a.latency_ms
        from webhook_deliveries d
        join outbox_events ev on ev.id = d.event_id
        join lateral (select attempted_at, latency_ms from webhook_attempts
                       where delivery_id = d.id order by id limit 1) a on true
       where ev.occurred_at >= ${since})
    select count(*)::int as deliveries,
           percentile_cont(0.5) within group (order by extract(epoch from created_at - occurred_at) * 1000) as "toRelayed",
           percentile_cont(0.5) within group (order by extract(epoch from handed_over_at - created_at) * 1000) as "toHandedOver",
           percentile_cont(0.5) within group (order by extract(epoch from attempted_at - handed_over_at) * 1000) as "toAttempt",
           percentile_cont(0.5) within group (order by latency_ms) as post
      from firsts`.execute(db);
  return rows[0]!;
}

export const stagesLine = (s: EventStages) =>
  `stages (median of ${s.deliveries}): commit → relayed ${s.toRelayed.toFixed(1)} ms, ` +
  `relayed → handed over ${s.toHandedOver.toFixed(1)} ms, handed over → attempt ${s.toAttempt.toFixed(1)} ms, ` +
  `POST ${s.post.toFixed(1)} ms`;

import type { StreamedEventRow } from '../../../db/repositories/events/outbox-reads.js';
import type { ApiVersion } from '../../../domain/api-versions/versions.js';
import { EVENT_TYPES } from '../../../domain/events/catalogue.js';
import { EVENT_SCHEMAS, type RenderContext, renderEvent } from '../../events.js';
import { z } from '../../zod.js';

// An event as the stream and the list show it (docs/events.md "The stream"): the body a webhook
// delivery POSTs, rendered by the same presenter, with its `seq`, the cursor to resume after it.

const [FIRST_TYPE, ...OTHER_TYPES] = EVENT_TYPES;

/** Any event of the catalogue, told apart by `type`. */
export const AnyEvent = z
  .discriminatedUnion('type', [EVENT_SCHEMAS[FIRST_TYPE], ...OTHER_TYPES.map((type) => EVENT_SCHEMAS[type])])
  .openapi('Event', { description: 'An event, as a webhook delivery POSTs it.' });

export const EventRecordEnvelope = z
  .object({
    object: z.literal('event'),
    seq: z.string().openapi({
      example: '1042',
      description: 'Its place in the order events committed in; the stream sends it as the event’s `id`.',
    }),
    event: AnyEvent,
  })
  .openapi('EventRecord');

export const EventListEnvelope = z
  .object({
    object: z.literal('list'),
    data: z.array(EventRecordEnvelope),
    meta: z.object({
      next_after: z.string().openapi({
        example: '1042',
        description: 'Pass as `after` to read on: the last event’s seq, or how far the list looked.',
      }),
      has_more: z.boolean().openapi({ description: 'More events match now; ask again at once.' }),
    }),
  })
  .openapi('EventList');

/** One event of the list, its body rendered in the version the request is answered in. */
export const serializeEventRecord = (row: StreamedEventRow, version: ApiVersion, context: RenderContext) => ({
  object: 'event' as const,
  seq: String(row.seq),
  event: renderEvent(row, version, context),
});

/** A page of the event list, with the cursor to read on from. */
export const eventListBody = (
  page: {
    readonly rows: readonly StreamedEventRow[];
    readonly nextAfter: number;
    readonly hasMore: boolean;
  },
  version: ApiVersion,
  context: RenderContext,
) => ({
  object: 'list' as const,
  data: page.rows.map((row) => serializeEventRecord(row, version, context)),
  meta: { next_after: String(page.nextAfter), has_more: page.hasMore },
});

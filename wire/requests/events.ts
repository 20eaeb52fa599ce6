import { EVENT_TYPES, isEventType } from '../../domain/events/catalogue.js';
import type { EventFilter } from '../../domain/events/filter.js';
import { z } from '../zod.js';

/** A cursor: an event's `seq`, as the stream's ids and the list's `next_after` give it. */
const SEQ = /^\d{1,15}$/;
const seq = (description: string) =>
  z
    .string()
    .regex(SEQ, { message: 'An event seq: the id of an event of this stream, or a next_after.' })
    .transform(Number)
    .optional()
    .openapi({ type: 'string', pattern: SEQ.source, example: '1042', description });

/** Event type names, comma-separated, spaces around them ignored: the shape; the catalogue says which exist. */
const TYPE_LIST = /^ *[a-z_]+\.[a-z_]+ *(, *[a-z_]+\.[a-z_]+ *)*$/;

/** The event stream's and the event list's query (docs/events.md "The stream", "The list"). */
export const EventQuery = z.object({
  type: z
    .string()
    .max(2_000)
    .regex(TYPE_LIST, { message: 'Event types, comma-separated (e.g. instance.running,instance.stopped).' })
    .transform((text, ctx) => {
      const types = [...new Set(text.split(',').map((t) => t.trim()))];
      const unknown = types.filter((t) => !isEventType(t));
      if (unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `Not an event type: ${unknown.join(', ')}.` });
      }
      return types;
    })
    .optional()
    .openapi({
      type: 'string',
      pattern: TYPE_LIST.source,
      example: 'instance.running,instance.stopped',
      description: `Only events of these types, comma-separated: ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}.`,
    }),
  resource_id: z
    .string()
    .uuid()
    .optional()
    .openapi({ description: 'Only events of this resource (an instance, a task, a webhook endpoint).' }),
  since: z.string().datetime({ offset: true }).optional().openapi({
    description: 'Only events that occurred at or after this time.',
    example: '2026-11-28T22:00:00Z',
  }),
  after: seq(
    'Only events after this one: the list’s `meta.next_after`, or a stream event’s id. The stream takes ' +
      '`Last-Event-ID` before it. Below the retention floor: 410 SVC-EVENT-410 (list), `event: reset` (stream).',
  ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(25)
    .openapi({ example: 25, description: 'The list’s page size (1 to 100); the stream ignores it.' }),
});

/** The header an EventSource sends when it reconnects. */
export const EventStreamHeaders = z.object({
  'last-event-id': seq('The id of the last event received; the stream resumes after it.'),
});

/** The events a query asks for, of `userId`'s resources (null: every customer's). */
export const eventFilterOf = (
  userId: string | null,
  query: { type?: string[] | undefined; resource_id?: string | undefined; since?: string | undefined },
): EventFilter => ({
  userId,
  ...(query.type ? { types: query.type } : {}),
  ...(query.resource_id ? { resourceId: query.resource_id } : {}),
  ...(query.since ? { since: new Date(query.since) } : {}),
});

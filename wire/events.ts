import { type ApiVersion, CURRENT_API_VERSION } from '../domain/api-versions/versions.js';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType, isEventType } from '../domain/events/catalogue.js';
import { ApiVersionName } from './api-version.js';
import { EXAMPLE_AT, NO_LINKS, type RenderContext } from './event-presenters/presenter.js';
import { PRESENTERS } from './event-presenters/presenters.js';
import { renderInVersion } from './versions/render.js';
import { z } from './zod.js';

export { NO_LINKS, type RenderContext } from './event-presenters/presenter.js';

// An event as it is sent (docs/events.md "Payload"): the Standard Webhooks body (`type`,
// `timestamp`, `data`) with the event's id and its payload version. `data.object` is the resource
// as its API shows it, rendered by the same serializer (wire/event-presenters/), from the columns
// the change left.

/** The documents' example of one type, rendered by its presenter as a delivery is. */
function exampleEvent(type: EventType) {
  const { resource, example } = EVENT_CATALOGUE[type];
  return renderEvent(
    {
      id: '6f1c2a9e-8d3b-4c7e-9a51-2b0d4e6f8a13',
      type,
      occurred_at: new Date(EXAMPLE_AT),
      data: { object: PRESENTERS[resource].example(example.status), previous: example.previous },
    },
    CURRENT_API_VERSION,
  );
}

/** The body of one event type, as a named OpenAPI component (`InstanceRunningEvent`, …). */
function eventSchema<T extends EventType>(type: T) {
  const entry = EVENT_CATALOGUE[type];
  const name = type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return z
    .object({
      id: z
        .string()
        .uuid()
        .openapi({ description: 'The event id, also sent as `webhook-id`; the same on every attempt.' }),
      type: z.literal(type),
      version: z.literal(entry.version),
      // What `data.object` is rendered in: the endpoint's version (docs/events.md "Payload").
      api_version: ApiVersionName,
      timestamp: z
        .string()
        .openapi({ example: '2026-11-22T01:02:03.000Z', description: 'When the change committed.' }),
      data: z.object({
        object: PRESENTERS[entry.resource].schema,
        previous_attributes: entry.previous,
      }),
    })
    .openapi(`${name}Event`, { description: entry.summary, example: exampleEvent(type) });
}

export const EVENT_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventSchema(type)])) as {
  [T in EventType]: ReturnType<typeof eventSchema<T>>;
};

export interface RenderableEvent {
  readonly id: string;
  readonly type: string;
  readonly occurred_at: Date;
  readonly data: { object: Record<string, unknown>; previous: Record<string, unknown> };
}

/**
 * The body an event is sent with; the same bytes on every attempt. `context` carries what an
 * administrator's view links to (a migration's Temporal Web UI address); none by default.
 */
export function renderEvent(event: RenderableEvent, version: ApiVersion, context: RenderContext = NO_LINKS) {
  if (!isEventType(event.type))
    throw new Error(`event ${event.id} has a type the catalogue lacks: ${event.type}`);
  const entry = EVENT_CATALOGUE[event.type];
  return {
    id: event.id,
    type: event.type,
    version: entry.version,
    api_version: version,
    timestamp: event.occurred_at.toISOString(),
    data: {
      object: renderInVersion(PRESENTERS[entry.resource].present(event.data.object, context), version),
      previous_attributes: entry.previous.parse(event.data.previous),
    },
  };
}

import { z } from 'zod';
import { INSTANCE_OPERATIONS, OPERATION_STATES } from '../instances/operations.js';
import type { INSTANCE_STATUSES } from '../instances/statuses.js';
import { type EventAudience, type EventDefinition, RESOURCE_AUDIENCE } from './definition.js';
import { INSTANCE_EVENTS } from './instance-events.js';
import { PLANE_EVENTS } from './plane-events.js';
import { RESOURCE_EVENTS } from './resource-events.js';

export {
  EVENT_RESOURCES,
  type EventAudience,
  type EventDefinition,
  type EventResource,
} from './definition.js';

// The outbound event catalogue (SPEC.md §6.3, docs/events.md): every event the plane sends, by
// name. An entry says which resource the event carries (rendered as its API shows it, by the
// presenter of that resource in wire/event-presenters/), the version of its payload, and the shape
// of `previous_attributes`, what the change replaced. A new event is one entry in its family's
// file, plus its rule in outbox-rules.ts (and the trigger that holds it, a migration) or, for a
// new resource, its subject function and presenter.

export const EVENT_CATALOGUE = {
  ...INSTANCE_EVENTS,
  ...RESOURCE_EVENTS,
  ...PLANE_EVENTS,
} as const satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as [EventType, ...EventType[]];

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_CATALOGUE, value);

/** Who may receive events of this type: its resource's audience (definition.ts). */
export const eventAudience = (type: EventType): EventAudience =>
  RESOURCE_AUDIENCE[EVENT_CATALOGUE[type].resource];

/** The types a customer's endpoint may ask for, and the Client API's documents show. */
export const CUSTOMER_EVENT_TYPES = EVENT_TYPES.filter((type) => eventAudience(type) === 'customer') as [
  EventType,
  ...EventType[],
];

/**
 * The instance statuses that are news, and the event each sends; the outbox trigger on
 * `instances` holds the same table (a test compares them). Transitional statuses (`starting`,
 * `stopping`, …) send nothing: their operation's outcome does.
 */
export const INSTANCE_STATUS_EVENTS = {
  running: 'instance.running',
  stopped: 'instance.stopped',
  error: 'instance.failed',
  deleted: 'instance.deleted',
} as const satisfies Partial<Record<(typeof INSTANCE_STATUSES)[number], EventType>>;

/** The operation states that send `operation.failed`. */
export const FAILED_OPERATION_STATES = [
  'failed',
  'abandoned',
] as const satisfies readonly (typeof OPERATION_STATES)[number][];

/** An operation as the outbox records it (the columns the task presenter reads). */
export const OperationSnapshot = z.object({
  id: z.string(),
  instance_id: z.string(),
  kind: z.enum(INSTANCE_OPERATIONS),
  state: z.enum(OPERATION_STATES),
  outcome: z.record(z.string(), z.unknown()).nullable(),
  correlation_id: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

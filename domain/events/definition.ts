import type { z } from 'zod';

// What an entry of the event catalogue (catalogue.ts) says. Kept apart from the entries so each
// family of events (instance-events.ts, resource-events.ts, plane-events.ts) states its own.

/** The resources an event may carry; each has one presenter (wire/event-presenters/). */
export const EVENT_RESOURCES = [
  'instance',
  'operation',
  'webhook_endpoint',
  'backup',
  'snapshot',
  'volume',
  'console_session',
  'migration',
  'evacuation',
  'hypervisor',
] as const;
export type EventResource = (typeof EVENT_RESOURCES)[number];

/**
 * Who may receive an event of a resource. A customer's resources send `customer` events, recorded
 * with their owner's id, to that customer's endpoints and the plane's. The plane's own resources
 * (and migrations, shown to administrators only) send `plane` events, recorded with no owner, so
 * only the plane's endpoints receive them; the Client API's documents leave them out.
 */
export const RESOURCE_AUDIENCE = {
  instance: 'customer',
  operation: 'customer',
  webhook_endpoint: 'customer',
  backup: 'customer',
  snapshot: 'customer',
  volume: 'customer',
  console_session: 'customer',
  migration: 'plane',
  evacuation: 'plane',
  hypervisor: 'plane',
} as const satisfies Record<EventResource, 'customer' | 'plane'>;
export type EventAudience = (typeof RESOURCE_AUDIENCE)[EventResource];

export interface EventDefinition {
  readonly resource: EventResource;
  /** Bumped when the payload changes incompatibly; sent with every delivery. */
  readonly version: number;
  readonly summary: string;
  /** What the change replaced (Stripe's `previous_attributes`): an empty object when nothing did. */
  readonly previous: z.ZodObject;
  /** The documents' example: the status (or state) the resource is in after the change, and what it replaced. */
  readonly example: { readonly status: string; readonly previous: Record<string, unknown> };
}

/** An event of `resource` entering `status` (in the example from `from`), `previous` naming the column. */
export const enteredEvent = (
  resource: EventResource,
  summary: string,
  previous: z.ZodObject,
  example: { status: string; from?: string; column?: string },
): EventDefinition => ({
  resource,
  version: 1,
  summary,
  previous,
  example: {
    status: example.status,
    previous: example.from === undefined ? {} : { [example.column ?? 'state']: example.from },
  },
});

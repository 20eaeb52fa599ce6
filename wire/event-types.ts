import { CUSTOMER_EVENT_TYPES, EVENT_TYPES } from '../domain/events/catalogue.js';
import { z } from './zod.js';

/** An event type of the catalogue (docs/events.md), as the documents name it. */
export const EventTypeName = z.enum(EVENT_TYPES).openapi('EventType');

/** An event type a customer's endpoint may ask for: the plane-wide ones left out. */
export const CustomerEventTypeName = z.enum(CUSTOMER_EVENT_TYPES).openapi('CustomerEventType');

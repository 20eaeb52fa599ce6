import type { Context } from 'hono';
import type { Actor } from '../../../domain/actors.js';
import type { EventAudience } from '../../../domain/events/catalogue.js';
import type { AppEnv } from '../../../http/context.js';

/**
 * Who registers webhook endpoints through an API, and what its endpoints receive: a customer their
 * own resources' events (Client API), an administrator the whole plane's (Application API). The
 * routes are the same in both; only this differs.
 */
export interface WebhookSide {
  readonly asker: (c: Context<AppEnv>) => Extract<Actor, { type: 'user' | 'admin' }>;
  /** The list route's summary. */
  readonly listSummary: string;
  /** The create route's first sentence: what the endpoint receives. */
  readonly receives: string;
  /** The events this API's endpoints may receive, and its document lists (domain/events/definition.ts). */
  readonly audience: EventAudience;
}

import type { Context } from 'hono';
import type { AppEnv } from '../../../http/context.js';

/**
 * Whose events a reader of `GET /events` is shown: a customer their own resources' (Client API),
 * an administrator every customer's (Application API). The route is the same in both; only this
 * differs.
 */
export interface EventSide {
  /** The customer whose events the caller sees; null for all of them. */
  readonly readerOf: (c: Context<AppEnv>) => string | null;
  /** The route's first sentence: whose events it shows. */
  readonly shows: string;
}

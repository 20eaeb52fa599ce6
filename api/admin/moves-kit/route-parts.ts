import { type ErrorEnvelope, uuidParam } from '../../../wire/schemas.js';
import { pathParam as paramOf } from '../../routes-kit/path-params.js';

// What the move routes' factories (this folder) take from a route file: its responses, typed so
// the factory's handler answers only what they list, and its path.

/** An error response (a 409, a 503), as a route lists it with its own description. */
export interface ErrorResponse {
  readonly description: string;
  readonly content: { readonly 'application/json': { readonly schema: typeof ErrorEnvelope } };
}

/** A path with one UUID parameter, written whole: `/migrations/{migration}/recover`. */
export type PathOf<P extends string> = `/${string}{${P}}${string}`;

/**
 * The one parameter of a move route's path (`migration` of `/migrations/{migration}/recover`): its
 * schema, and its value read from what that schema validated.
 */
export function pathParam<P extends string>(path: PathOf<P>) {
  const name = paramOf<P>(path);
  return {
    schema: uuidParam(name),
    // TypeScript cannot index zod's output type of an object keyed by a type parameter; the
    // schema above makes it exactly this record.
    read: (valid: object) => (valid as Record<P, string>)[name],
  };
}

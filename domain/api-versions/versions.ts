// The dated versions of the Client, Application and admin APIs (docs/api.md "Versions", the choice
// in docs/decisions.md "API versions"). A version is the date its release changed what a client
// sees; every key is pinned to one when issued, and `Cloudsvc-Version` picks another per request.

/** Every version a client may ask for, oldest first; the last is the current one. */
export const API_VERSIONS = ['2026-11-22', '2026-12-06'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** What new keys and webhook endpoints are pinned to, and what the OpenAPI documents describe. */
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

/** The version every key and endpoint made before versions existed renders in (their migration). */
export const FIRST_API_VERSION: ApiVersion = API_VERSIONS[0];

/** The request header that overrides the key's pin, and the response header naming what was rendered. */
export const API_VERSION_HEADER = 'Cloudsvc-Version';

const DATED = /^\d{4}-\d{2}-\d{2}$/;

export const isApiVersion = (value: string): value is ApiVersion =>
  (API_VERSIONS as readonly string[]).includes(value);

/** The verdict on a version a client named: one of ours, or why not (the 400's detail). */
export function checkApiVersion(
  value: string,
): { ok: true; version: ApiVersion } | { ok: false; detail: string } {
  if (isApiVersion(value)) return { ok: true, version: value };
  const known = API_VERSIONS.join(', ');
  return {
    ok: false,
    detail: DATED.test(value)
      ? `${value} is not a version of this API; the versions are ${known}.`
      : `A version is a date, YYYY-MM-DD: one of ${known}.`,
  };
}

/** Whether `a` is older than `b` (dates in one format compare as text). */
export const olderThan = (a: ApiVersion, b: ApiVersion): boolean => a < b;

/**
 * A stored pin as a version. Pins are written only from this list, and a release that drops a
 * version past its sunset moves its pins on in a migration; a pin that is somehow neither renders
 * in the current version rather than failing every request of its key.
 */
export const pinnedVersion = (stored: string | null): ApiVersion =>
  stored !== null && isApiVersion(stored) ? stored : CURRENT_API_VERSION;

import { type ApiVersion, CURRENT_API_VERSION } from './versions.js';

// The one registry of deprecations (docs/api.md "Versions"): a version, or a route of an API,
// announced as going away. Every answer to a request it concerns carries `Deprecation` (RFC 9745),
// `Sunset` (RFC 8594) and a `Link` to the changelog (http/api-version.ts); the OpenAPI documents
// mark a deprecated route `deprecated`. Nothing else decides either.

/** The APIs that take a version (the Agent and console internal APIs do not: docs/decisions.md). */
export const VERSIONED_APIS = ['client', 'application', 'admin'] as const;
export type VersionedApi = (typeof VERSIONED_APIS)[number];

interface Announced {
  /** The day it was announced (UTC midnight), `Deprecation: @<epoch>`. */
  readonly deprecatedOn: string;
  /** The first day it may no longer be served (UTC midnight), `Sunset: <HTTP-date>`. */
  readonly sunsetOn: string;
}

export type Deprecation =
  | (Announced & { readonly kind: 'version'; readonly version: ApiVersion })
  | (Announced & {
      readonly kind: 'route';
      readonly api: VersionedApi;
      readonly method: string;
      /** As the OpenAPI document writes it: `/{cloudInstance}/power`. */
      readonly path: string;
    });

/**
 * Policy (docs/api.md "Versions"): a version is deprecated the day the next one is released and
 * served for at least twelve months after; a route, twelve months after it is announced.
 */
export const DEPRECATIONS: readonly Deprecation[] = [
  { kind: 'version', version: '2026-11-22', deprecatedOn: '2026-12-06', sunsetOn: '2027-12-06' },
];

/** Where the answers' `Link: <…>; rel="deprecation"` points: the changelog page the API serves. */
export const CHANGELOG_PATH = '/docs/api-changelog';

/** `/{cloudInstance}/power` as a pattern over a request's path below its API's base. */
const routePattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);

export interface DeprecationIndex {
  /** The deprecations a request concerns: its version's, then its route's. */
  readonly of: (api: VersionedApi, version: ApiVersion, method: string, path: string) => Deprecation[];
  readonly ofRoute: (api: VersionedApi, method: string, path: string) => Deprecation | undefined;
}

/** The registry, indexed once; a test may index a registry of its own. */
export function indexDeprecations(registry: readonly Deprecation[]): DeprecationIndex {
  const versions = new Map<ApiVersion, Deprecation>();
  const routes: { entry: Deprecation & { kind: 'route' }; pattern: RegExp }[] = [];
  for (const entry of registry) {
    if (entry.kind === 'version') {
      if (entry.version === CURRENT_API_VERSION) throw new Error('the current version cannot be deprecated');
      versions.set(entry.version, entry);
    } else routes.push({ entry, pattern: routePattern(entry.path) });
  }
  const ofRoute = (api: VersionedApi, method: string, path: string) =>
    routes.find((r) => r.entry.api === api && r.entry.method === method.toLowerCase() && r.pattern.test(path))
      ?.entry;
  return {
    ofRoute,
    of(api, version, method, path) {
      const found: Deprecation[] = [];
      const ofVersion = versions.get(version);
      if (ofVersion) found.push(ofVersion);
      // No route is deprecated today: the common request pays no pattern match.
      if (routes.length > 0) {
        const route = ofRoute(api, method, path);
        if (route) found.push(route);
      }
      return found;
    },
  };
}

export const deprecations = indexDeprecations(DEPRECATIONS);

const utcMidnight = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The headers of the deprecations a request concerns: the earliest announcement and the earliest
 * sunset among them (RFC 9745 §2.1 allows one `Deprecation`; RFC 8594 one `Sunset`).
 */
export function deprecationHeaders(found: readonly Deprecation[]): Record<string, string> | undefined {
  if (found.length === 0) return undefined;
  const earliest = (days: string[]) => days.sort()[0]!;
  const deprecated = utcMidnight(earliest(found.map((d) => d.deprecatedOn)));
  const sunset = utcMidnight(earliest(found.map((d) => d.sunsetOn)));
  return {
    Deprecation: `@${Math.floor(deprecated.getTime() / 1000)}`,
    Sunset: sunset.toUTCString(),
    Link: `<${CHANGELOG_PATH}>; rel="deprecation"; type="text/html"`,
  };
}

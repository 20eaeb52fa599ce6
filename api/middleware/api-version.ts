import type { Context, MiddlewareHandler } from 'hono';
import {
  deprecationHeaders,
  deprecations,
  type VersionedApi,
} from '../../domain/api-versions/deprecations.js';
import {
  API_VERSION_HEADER,
  type ApiVersion,
  CURRENT_API_VERSION,
  checkApiVersion,
} from '../../domain/api-versions/versions.js';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';
import { differsFromCurrent, renderInVersion } from '../../wire/versions/render.js';
import { setResponseHeader } from './hot-path.js';

/**
 * The version a request is answered in (docs/api.md "Versions"): the one its `Cloudsvc-Version`
 * names, else the one its key is pinned to, else (no key yet, a refusal) the current one.
 */
export function versionOf(c: Context<AppEnv>): ApiVersion {
  const requested = c.get('requestedVersion');
  if (requested) return requested;
  const principal = c.get('principal');
  return principal && 'apiVersion' in principal ? principal.apiVersion : CURRENT_API_VERSION;
}

const setAnswerHeader = (c: Context<AppEnv>, name: string, value: string) => c.header(name, value);

const isJson = (res: Response) => /^application\/json\b/i.test(res.headers.get('content-type') ?? '');

/**
 * Runs before authentication on every route of a versioned API. A `Cloudsvc-Version` that names no
 * version is refused (400 SVC-VERSION-400) before anything else runs, so it changes nothing. Once
 * answered: the answer names its version, carries the deprecations of its version and route, and
 * a JSON body rendered in the current version is turned into the version asked for.
 */
export function apiVersions(api: VersionedApi, base: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const asked = c.req.header(API_VERSION_HEADER);
    if (asked !== undefined) {
      const verdict = checkApiVersion(asked.trim());
      if (!verdict.ok) {
        throw new ApiError('SVC-VERSION-400', {
          fields: [{ field: API_VERSION_HEADER, detail: verdict.detail }],
          headers: { [API_VERSION_HEADER]: CURRENT_API_VERSION },
        });
      }
      c.set('requestedVersion', verdict.version);
    }
    await next();

    const version = versionOf(c);
    if (differsFromCurrent(version) && isJson(c.res) && !c.get('renderedInVersion')) {
      const current = c.res;
      const rendered = renderInVersion(await current.json(), version);
      const kept = new Headers(current.headers);
      kept.delete('content-length');
      // Unset first: Hono's setter would copy the old answer's headers over the new one's.
      c.res = undefined;
      c.res = new Response(JSON.stringify(rendered), { status: current.status, headers: kept });
    }
    // The common answer's headers go the hot path's way; an older version's on the answer itself,
    // so what wraps the app (a test's contract check) sees the version.
    const setHeader = version === CURRENT_API_VERSION ? setResponseHeader : setAnswerHeader;
    setHeader(c, API_VERSION_HEADER, version);
    const announced = deprecationHeaders(
      deprecations.of(api, version, c.req.method, c.req.path.slice(base.length)),
    );
    if (announced) for (const [name, value] of Object.entries(announced)) setHeader(c, name, value);
  };
}

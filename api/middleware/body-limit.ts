import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../domain/errors.js';
import { jsonShapeProblem } from '../../domain/input-bounds.js';
import type { AppEnv } from '../../http/context.js';
import type { Config } from '../../platform/config.js';
import { bodiless } from './hot-path.js';

/**
 * Refuses a body over the limit while it is read, before any parser sees it: a Content-Length
 * over the limit is refused unread, a chunked body as soon as it passes the limit, and at most
 * the limit is ever held in memory. Authenticated APIs run it after their credential check, so a
 * caller without one never gets a byte of its body read. A JSON body within the limit is then
 * refused if it holds more items, or nests deeper, than any route takes.
 */
function limitBody(limitOf: (config: Config) => number): MiddlewareHandler<AppEnv> {
  const limiters = new Map<number, MiddlewareHandler>();
  const limiterFor = (maxSize: number) => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      limiter = bodyLimit({
        maxSize,
        onError: () => {
          // The rest of the body stays unread, so the connection cannot carry another request.
          throw new ApiError('SVC-REQ-413', {
            detail: `The request body is larger than this route accepts (${maxSize} bytes).`,
            headers: { Connection: 'close' },
          });
        },
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  return (c, next) =>
    bodiless(c)
      ? next()
      : limiterFor(limitOf(c.get('deps').config))(c, () => refuseOversizedJson(c).then(next));
}

/** The media types the routes' validators read as JSON. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Refuses a JSON body whose shape no route takes (`jsonShapeProblem`) before a validator walks
 * it. A body that is not JSON is left to the route's validator, which says so.
 */
async function refuseOversizedJson(c: Context<AppEnv>): Promise<void> {
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim() ?? '';
  if (c.req.raw.body === null || !JSON_MEDIA_TYPE.test(mediaType)) return;
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return;
  }
  const problem = jsonShapeProblem(body);
  if (problem) {
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: problem.field || 'json', detail: problem.detail }],
    });
  }
}

export const limitAuthenticatedBody = limitBody((config) => config.BODY_LIMIT_BYTES);
export const limitUnauthenticatedBody = limitBody((config) => config.UNAUTHENTICATED_BODY_LIMIT_BYTES);

import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../domain/errors.js';
import type { Config } from '../../platform/config.js';
import type { AppEnv } from '../context.js';

/**
 * Refuses a body over the limit while it is read, before any parser sees it: a Content-Length
 * over the limit is refused unread, a chunked body as soon as it passes the limit, and at most
 * the limit is ever held in memory. Authenticated APIs run it after their credential check, so a
 * caller without one never gets a byte of its body read.
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
  return (c, next) => limiterFor(limitOf(c.get('deps').config))(c, next);
}

export const limitAuthenticatedBody = limitBody((config) => config.BODY_LIMIT_BYTES);
export const limitUnauthenticatedBody = limitBody((config) => config.UNAUTHENTICATED_BODY_LIMIT_BYTES);

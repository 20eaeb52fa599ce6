import { trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { setResponseHeader } from './hot-path.js';
import { MAX_REQUEST_ID_BYTES, takeRequestId } from './request-id.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length !== null && length !== '0') || headers.has('transfer-encoding');
}

const FORM = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * Runs first on every request: binds the dependencies, takes or makes the request id (SPEC.md
 * §1 convention 3, request-id.ts), echoes it, gives the request a logger that carries it, and refuses a body
 * that is not JSON before any route reads it, but an HTML form's on the paths that take one (the
 * admin pages' `takesForm`).
 */
export function requestContext(
  deps: AppDeps,
  takesForm: (path: string) => boolean = () => false,
): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const offered = c.req.header('x-request-id');
    const { id: requestId, header, generated } = takeRequestId(offered);
    const logger = deps.logger.child({ request_id: requestId });
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('logger', logger);
    setResponseHeader(c, 'X-Request-Id', header);
    if (generated && offered) {
      logger.info('X-Request-Id set aside', {
        offered_bytes: offered.length,
        max_bytes: MAX_REQUEST_ID_BYTES,
      });
    }
    trace.getActiveSpan()?.setAttribute('cloudsvc.request_id', requestId);

    if (BODY_METHODS.has(c.req.method) && hasBody(c.req.raw.headers)) {
      const type = c.req.header('content-type') ?? '';
      const json = /^application\/(.+\+)?json\s*(;|$)/i.test(type);
      if (!json && !(FORM.test(type) && takesForm(c.req.path))) throw new ApiError('SVC-REQ-415');
    }

    if (!logger.enabled('debug')) return next();
    const started = performance.now();
    return next().then(() =>
      logger.debug('request', {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
  };
}

import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { respondWithError } from '../../api/error-envelope.js';
import { ApiError } from '../../domain/errors.js';
import type { PageEnv } from './context.js';
import { acceptsHtml } from './http.js';
import { Notice } from './layout/page.js';
import { pages } from './paths.js';
import { type PageStatus, renderPage } from './render.js';

function asApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (thrown instanceof HTTPException && thrown.status < 500)
    return new ApiError('SVC-REQ-400', { cause: thrown });
  return new ApiError('SVC-SYS-000', { cause: thrown });
}

/**
 * What a page shows when it cannot show itself: the catalogue's code and detail, and for our own
 * faults a support id that finds the cause in the log, as the APIs' error envelope gives them. A
 * caller that does not read HTML gets that envelope itself.
 */
export async function renderError(c: Context<PageEnv>, thrown: unknown): Promise<Response> {
  if (!acceptsHtml(c)) return respondWithError(c, thrown);
  const error = asApiError(thrown);
  const supportId = `sup_${randomUUID().replaceAll('-', '')}`;
  const fields = {
    support_id: supportId,
    code: error.code,
    status: error.status,
    method: c.req.method,
    path: c.req.path,
  };
  if (error.status >= 500) c.get('logger')?.error('page failed', { ...fields, cause: error.cause ?? error });
  else c.get('logger')?.info('page refused', fields);
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  const title = error.status === 404 ? 'Not found' : 'Something went wrong';
  return renderPage(
    c,
    title,
    <>
      <h1>{title}</h1>
      <Notice kind="error">
        <p>
          {error.detail} <span class="mono">({error.code})</span>
        </p>
        {error.status >= 500 && (
          <p>
            Support id: <span class="mono">{supportId}</span>
          </p>
        )}
      </Notice>
      <p>
        <a href={pages.migrations}>Back to the migrations</a>
      </p>
    </>,
    error.status as PageStatus,
  );
}

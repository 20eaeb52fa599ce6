import type { Context } from 'hono';
import { refusal, respondWithError } from '../../http/error-envelope.js';
import type { PageEnv } from './context.js';
import { acceptsHtml } from './http.js';
import { Notice } from './layout/page.js';
import { pages } from './paths.js';
import { type PageStatus, renderPage } from './render.js';

/**
 * What a page shows when it cannot show itself: the catalogue's code and detail, and for our own
 * faults a support id that finds the cause in the log, as the APIs' error envelope gives them. A
 * caller that does not read HTML gets that envelope itself.
 */
export async function renderError(c: Context<PageEnv>, thrown: unknown): Promise<Response> {
  if (!acceptsHtml(c)) return respondWithError(c, thrown);
  const { error, supportId } = refusal(c, thrown);
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

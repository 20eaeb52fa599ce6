import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { PageEnv } from './context.js';
import { PAGE_HEADERS } from './http.js';
import { Page } from './layout/page.js';

export type PageStatus = 200 | 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503;

/** A whole page, in the frame, with the pages' headers; signed in when the request's session is set. */
export async function renderPage(
  c: Context<PageEnv>,
  title: string,
  content: Child,
  status: PageStatus = 200,
): Promise<Response> {
  const session = c.get('session');
  const signed = session ? { userName: session.userName, csrf: c.get('csrf') } : undefined;
  const html = await (
    <Page title={title} signed={signed}>
      {content}
    </Page>
  ).toString();
  return c.html(`<!doctype html>${html}`, status, PAGE_HEADERS);
}

/** A live region alone, as its refresh asks for it (assets/live.ts). */
export async function renderPart(
  c: Context<PageEnv>,
  content: HtmlEscapedString | Promise<HtmlEscapedString>,
): Promise<Response> {
  const html = await content.toString();
  return c.html(html, 200, PAGE_HEADERS);
}

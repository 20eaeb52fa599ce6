import type { Child } from 'hono/jsx';
import { pages } from '../paths.js';

export interface Signed {
  readonly userName: string;
  readonly csrf: string;
}

/**
 * Every page's frame: a skip link, the header with the signed-in administrator and the logout
 * button, one main landmark. Pages render their own h1.
 */
export function Page(props: { title: string; signed?: Signed | undefined; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · cloudsvc admin`}</title>
        <link rel="stylesheet" href={pages.asset('admin.css')} />
        <script src={pages.asset('live.js')} defer />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href={pages.migrations}>
            cloudsvc admin
          </a>
          {props.signed && (
            <nav aria-label="Main">
              <a href={pages.migrations}>Migrations</a>
            </nav>
          )}
          {props.signed && (
            <form method="post" action={pages.logout} class="logout">
              <span>{props.signed.userName}</span>
              <input type="hidden" name="csrf" value={props.signed.csrf} />
              <button type="submit">Log out</button>
            </form>
          )}
        </header>
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}

/** A notice above a page's content: what was done, or why it was not. */
export function Notice(props: { kind: 'info' | 'error'; children: Child }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

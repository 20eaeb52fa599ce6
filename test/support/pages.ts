/**
 * A browser, as far as the admin pages' HTTP goes: it keeps the cookies the pages set, sends an
 * HTML Accept and this site's Origin with its forms, and reads the form token off the last page.
 * The browser tests (test/web/) use a real Chromium; this is for the many cases around them.
 */
export interface PageReply {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
  /** Where a redirect points (303 after a form, or to the login page). */
  readonly location: string | null;
}

const ORIGIN = 'http://localhost';

export function pageBrowser(send: (path: string, init: RequestInit) => Promise<Response> | Response) {
  const jar = new Map<string, string>();
  let lastHtml = '';

  function keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (gone) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
  }

  async function request(
    method: string,
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const response = await send(path, {
      method,
      redirect: 'manual',
      headers: {
        Accept: 'text/html,application/xhtml+xml',
        Host: 'localhost',
        ...(jar.size ? { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    keep(response);
    const html = await response.text();
    if (response.headers.get('content-type')?.includes('html')) lastHtml = html;
    return {
      status: response.status,
      headers: response.headers,
      html,
      location: response.headers.get('location'),
    };
  }

  /** The form token of the last page read (every signed-in page's forms carry it). */
  const csrf = () => /name="csrf" value="([^"]+)"/.exec(lastHtml)?.[1] ?? '';

  return {
    cookies: jar,
    get: (path: string, headers?: Record<string, string>): Promise<PageReply> =>
      request('GET', path, undefined, headers),
    post: (
      path: string,
      form: Record<string, string>,
      headers?: Record<string, string>,
    ): Promise<PageReply> => request('POST', path, form, headers),
    csrf,
    /** Signs in with `key` through the login form; the reply to the form's post. */
    async login(key: string, next?: string): Promise<PageReply> {
      await request('GET', `/admin/cloudsvc/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
      return request('POST', '/admin/cloudsvc/login', { key, csrf: csrf(), next: next ?? '' });
    },
  };
}

export type PageBrowser = ReturnType<typeof pageBrowser>;

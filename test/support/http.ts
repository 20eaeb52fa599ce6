import { assertContract, inDocumentedVersion } from './response-contract.js';

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const jsonHeaders = (token: string) => ({ ...bearer(token), 'Content-Type': 'application/json' });

// Response bodies are asserted field by field in tests; `any` keeps those assertions readable.
// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not types
export type Body = any;
export const json = (res: Response): Promise<Body> => res.json() as Promise<Body>;

/** A response read once: its status, its headers and its body (parsed when JSON, else text). */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Body;
}

/** Sends a request through `send` (a listening server's `fetch` or an app's `request`) and reads it. */
export async function callWith(
  send: (path: string, init: RequestInit) => Promise<Response> | Response,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const sent = {
    ...(token === null ? {} : bearer(token)),
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...headers,
  };
  const res = await send(path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type');
  const isJson = contentType?.includes('json') && text !== '';
  const reply = { status: res.status, headers: res.headers, body: isJson ? JSON.parse(text) : text };
  const described = inDocumentedVersion(res.headers) ? reply.body : undefined;
  await assertContract(method, path, new Headers(sent), reply.status, contentType, described);
  return reply;
}

/** Every item of a paginated list, page by page (the run's database holds every test file's rows). */
export async function allPages(list: (page: number) => Promise<Reply>): Promise<Body[]> {
  const all: Body[] = [];
  for (let page = 1; ; page++) {
    const { body } = await list(page);
    all.push(...body.data);
    if (page >= body.meta.pagination.total_pages) return all;
  }
}

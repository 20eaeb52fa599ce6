import type { Context } from 'hono';
import type { PageEnv } from './context.js';

/**
 * Every page's headers: nothing cached, not framed, no script or style but our own, forms only to
 * ourselves; the pages hold administrators' data and forms that act on the plane.
 */
export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
} as const;

/**
 * Whether the browser reached us over TLS: the request's own scheme, or, behind TRUST_PROXY_HOPS
 * proxies, what the nearest proxy says it was (X-Forwarded-Proto).
 */
export function overTls(c: Context<PageEnv>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (c.get('deps').config.TRUST_PROXY_HOPS === 0) return false;
  const forwarded = c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim().toLowerCase();
  return forwarded === 'https';
}

/**
 * A form's request came from a page of this site: its Origin (or, without one, its Referer) names
 * this host. A browser sends one of them with every form; a request that sends neither is not a
 * browser's, and the form token still decides.
 */
export function fromThisSite(c: Context<PageEnv>): boolean {
  const source = c.req.header('origin') ?? c.req.header('referer');
  if (!source) return true;
  const host =
    (c.get('deps').config.TRUST_PROXY_HOPS > 0 ? c.req.header('x-forwarded-host') : undefined) ??
    c.req.header('host') ??
    new URL(c.req.url).host;
  try {
    return new URL(source).host === host;
  } catch {
    return false;
  }
}

/** Whether the caller reads HTML: a browser does; a script is answered in the APIs' error envelope. */
export const acceptsHtml = (c: Context<PageEnv>): boolean =>
  /\btext\/html\b/.test(c.req.header('accept') ?? '');

/** A page's request, as against an API call on a path the two share (`GET /migrations`). */
export const wantsPage = (c: Context<PageEnv>): boolean => !c.req.header('authorization') && acceptsHtml(c);

import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { sameSecret } from '../../../domain/admin-sessions.js';
import { ApiError } from '../../../domain/errors.js';
import type { PageEnv } from '../context.js';
import { fromThisSite } from '../http.js';

/** The largest form a page takes: a reason and a handful of choices. */
const FORM_LIMIT_BYTES = 16 * 1024;

export const limitForm: MiddlewareHandler<PageEnv> = bodyLimit({
  maxSize: FORM_LIMIT_BYTES,
  onError: () => {
    throw new ApiError('SVC-REQ-413', {
      detail: `The form is larger than a page takes (${FORM_LIMIT_BYTES} bytes).`,
      headers: { Connection: 'close' },
    });
  },
});

export type FormFields = Readonly<Record<string, string>>;

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * The text fields of the request's form (an input given twice counts by its last value). The
 * pages' forms are URL-encoded: any other body is refused (415), and one that cannot be read (400).
 */
export async function formFields(c: Context<PageEnv>): Promise<FormFields> {
  if (!FORM_TYPE.test(c.req.header('content-type') ?? ''))
    throw new ApiError('SVC-REQ-415', {
      detail: 'A page’s form must be sent as application/x-www-form-urlencoded.',
    });
  let body: Awaited<ReturnType<typeof c.req.parseBody>>;
  try {
    body = await c.req.parseBody();
  } catch (error) {
    throw new ApiError('SVC-REQ-400', { detail: 'The form could not be read.', cause: error });
  }
  return Object.fromEntries(
    Object.entries(body).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
}

/**
 * A signed-in page's form, once it proved it came from a page of this session: the session's form
 * token in `csrf`, and an Origin of this site. Anything else is refused and changes nothing.
 */
export async function sessionForm(c: Context<PageEnv>): Promise<FormFields> {
  const fields = await formFields(c);
  if (!fromThisSite(c) || !sameSecret(c.get('csrf'), fields.csrf)) throw new ApiError('SVC-CSRF-403');
  return fields;
}

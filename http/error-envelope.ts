import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from './context.js';

/** The one error envelope (DESIGN.md "Errors"): `{ errors: [{ code, status, detail }], support_id }`. */
interface ErrorBody {
  errors: {
    code: string;
    status: number;
    detail: string;
    source?: { field: string };
    meta?: Readonly<Record<string, string | number>>;
  }[];
  support_id: string;
}

function newSupportId(): string {
  return `sup_${randomUUID().replaceAll('-', '')}`;
}

function errorBody(error: ApiError, supportId: string): ErrorBody {
  const base = { code: error.code, status: error.status, ...(error.meta ? { meta: error.meta } : {}) };
  const errors =
    error.fields.length === 0
      ? [{ ...base, detail: error.detail }]
      : error.fields.map((f) => ({ ...base, detail: f.detail, source: { field: f.field } }));
  return { errors, support_id: supportId };
}

/** Turns anything thrown into a catalogue error; what is not one already becomes SVC-SYS-000. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    // Hono's own validators throw these for bodies they cannot read.
    if (error.status === 400 && /json/i.test(error.message))
      return new ApiError('SVC-REQ-JSON', { cause: error });
    if (error.status === 415) return new ApiError('SVC-REQ-415', { cause: error });
    if (error.status === 404) return new ApiError('SVC-RTE-404', { cause: error });
    if (error.status < 500) return new ApiError('SVC-REQ-400', { cause: error });
  }
  return new ApiError('SVC-SYS-000', { cause: error });
}

/**
 * The catalogue error anything thrown is, logged with a new support id (our faults with their
 * cause) and its headers set on the answer: what the APIs' envelope and the admin pages' error page
 * both start from.
 */
export function refusal<E extends AppEnv>(
  c: Context<E>,
  thrown: unknown,
): { error: ApiError; supportId: string } {
  const error = toApiError(thrown);
  const supportId = newSupportId();
  const logger = c.get('logger');
  const fields = {
    support_id: supportId,
    code: error.code,
    status: error.status,
    method: c.req.method,
    path: c.req.path,
  };
  if (error.status >= 500) {
    logger?.error('request failed', { ...fields, cause: error.cause ?? error });
  } else {
    logger?.info('request refused', fields);
  }
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return { error, supportId };
}

export function respondWithError<E extends AppEnv>(c: Context<E>, thrown: unknown): Response {
  const { error, supportId } = refusal(c, thrown);
  return c.json(errorBody(error, supportId), error.status as 400);
}

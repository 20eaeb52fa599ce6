import type { Hook } from '@hono/zod-openapi';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from './context.js';

/** Past this many, more field errors tell a caller nothing, and a small body would buy a large answer. */
export const MAX_FIELD_ERRORS = 100;

/**
 * zod failures become the error envelope. A path parameter that is not a UUID names no
 * resource, so it answers the same 404 as an unknown one (SPEC.md §1 conventions 1 and 2);
 * any other bad input is a 400 that names each offending field, the first MAX_FIELD_ERRORS of them.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  if (result.target === 'param') throw new ApiError('SVC-RES-404');
  // An object's unknown fields come as one issue at the object: each is named, as a bad field is.
  const fields = result.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), detail: 'Unknown field.' }))
      : [{ field: issue.path.length > 0 ? issue.path.join('.') : result.target, detail: issue.message }],
  );
  throw new ApiError('SVC-REQ-400', { fields: fields.slice(0, MAX_FIELD_ERRORS) });
};

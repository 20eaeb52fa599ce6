import type { Hook } from '@hono/zod-openapi';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';

/** Past this many, more field errors tell a caller nothing, and a small body would buy a large answer. */
export const MAX_FIELD_ERRORS = 100;

/** The detail names its field as `source.field` does, so the detail alone says which (wire/validation-messages.ts). */
const named = (field: string, message: string) => ({ field, detail: `${field}: ${message}` });

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
      ? issue.keys.map((key) => named([...issue.path, key].join('.'), 'Unknown field.'))
      : [named(issue.path.length > 0 ? issue.path.join('.') : result.target, issue.message)],
  );
  throw new ApiError('SVC-REQ-400', { fields: fields.slice(0, MAX_FIELD_ERRORS) });
};

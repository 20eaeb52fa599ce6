import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';

/** The methods whose routes may take a body: those without one declared must be sent none. */
export const WRITE_METHODS: readonly string[] = ['post', 'put', 'patch', 'delete'];

/**
 * For a write whose route declares no body: nothing, whitespace or `{}` is accepted; text that is
 * not JSON is refused as any malformed body is (SVC-REQ-JSON), and JSON that says anything is
 * refused as an unknown field would be (SVC-REQ-400), so that a caller who believes it is sending
 * options learns that they are not read.
 */
export const refuseBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const text = (await c.req.text()).trim();
  if (text !== '') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError('SVC-REQ-JSON', { cause: error });
    }
    const empty =
      typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
    if (!empty)
      throw new ApiError('SVC-REQ-400', {
        fields: [{ field: 'body', detail: 'This request takes no body; send none, or {}.' }],
      });
  }
  await next();
};

import { commonErrors, rateLimitedResponse } from '../../wire/schemas.js';

/** What every internal route may answer besides its own: the common errors and the gateway's rate limit. */
export const internalErrors = { ...commonErrors, ...rateLimitedResponse } as const;

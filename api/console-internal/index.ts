import type { Context, Next } from 'hono';
import type { AppEnv } from '../../http/context.js';
import { countGatewayRequest } from '../../services/console/gateway-rate-limit.js';
import { requireGatewayCredential } from '../auth/middleware.js';
import { gatewayCredentialId } from '../auth/principals.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../routes-kit/router.js';
import * as heartbeat from './heartbeat.js';
import * as revocations from './revocations.js';
import * as sessionState from './session-state.js';
import * as validate from './validate.js';

/** Every request of a gateway counts against its own limit, before anything else is done. */
async function limitGateway(c: Context<AppEnv>, next: Next): Promise<void> {
  await countGatewayRequest(c.get('deps'), gatewayCredentialId(c));
  await next();
}

/**
 * The console gateway's internal API (SPEC.md §4), mounted at
 * /api/application/cloudsvc/console/internal, outside the application-API middleware: reachable
 * only with a console-gateway credential, under a rate limit of its own.
 */
export function consoleInternalApi() {
  const app = createApiRouter();
  app.use('*', requireGatewayCredential, limitGateway, limitAuthenticatedBody);
  for (const route of [validate, sessionState, heartbeat, revocations]) route.register(app);
  return app;
}

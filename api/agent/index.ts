import { AGENT_BASE } from '../../wire/paths.js';
import { requireAgentCredential } from '../auth/middleware.js';
import { limitAuthenticatedBody, limitUnauthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter, exceptUnder } from '../routes-kit/router.js';
import * as enroll from './enroll.js';
import * as heartbeat from './heartbeat.js';
import * as inventory from './inventory.js';
import * as metrics from './metrics.js';
import * as reports from './reports.js';
import * as nextTask from './tasks-next.js';
import * as redeemTransfer from './transfers-redeem.js';

/** The Agent API (SPEC.md §4), mounted at /api/cloudsvc/agent. `enroll` is the one route without the agent credential. */
export function agentApi() {
  const app = createApiRouter();
  app.use('/enroll', limitUnauthenticatedBody);
  app.use('*', exceptUnder(AGENT_BASE, ['/enroll'], requireAgentCredential));
  app.use('*', exceptUnder(AGENT_BASE, ['/enroll'], limitAuthenticatedBody));
  for (const route of [enroll, heartbeat, inventory, metrics, nextTask, reports, redeemTransfer])
    route.register(app);
  return app;
}

import type { Client as TemporalClient } from '@temporalio/client';
import type { Database } from '../db/database.js';
import type { TaskFeed } from '../db/task-channel.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import type { ApiMetrics } from '../platform/metrics.js';
import type { Tracing } from '../platform/tracing.js';
import type { CredentialCache } from './credential-cache.js';

/** What every handler may use; set once at start-up, so tests build an app with their own. */
export interface AppDeps {
  readonly config: Config;
  readonly db: Database;
  readonly temporal: TemporalClient;
  readonly logger: Logger;
  readonly credentials: CredentialCache;
  readonly taskFeed: TaskFeed;
  readonly metrics: ApiMetrics;
  /** The process's traces, while TRACING_ENABLED is on. */
  readonly tracing?: Tracing;
}

/** Who presented the request's credential, by the credential's type (set by api/auth/middleware.ts). */
export type Principal =
  | { readonly type: 'client'; readonly credentialId: string; readonly userId: string }
  | { readonly type: 'application'; readonly credentialId: string; readonly userId: string }
  | { readonly type: 'agent'; readonly credentialId: string; readonly hypervisorId: string }
  | { readonly type: 'console_gateway'; readonly credentialId: string };

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    logger: Logger;
    principal: Principal;
  };
}

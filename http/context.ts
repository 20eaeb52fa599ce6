import type { Client as TemporalClient } from '@temporalio/client';
import type { Database } from '../db/database.js';
import type { TaskFeed } from '../db/task-channel.js';
import type { ApiVersion } from '../domain/api-versions/versions.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import type { ApiMetrics } from '../platform/metrics.js';
import type { Tracing } from '../platform/tracing.js';
import type { EventFeed } from '../services/events/feed.js';
import type { CredentialCache } from './credential-cache.js';

/** What every handler may use; set once at start-up, so tests build an app with their own. */
export interface AppDeps {
  readonly config: Config;
  readonly db: Database;
  readonly temporal: TemporalClient;
  readonly logger: Logger;
  readonly credentials: CredentialCache;
  readonly taskFeed: TaskFeed;
  /** The process's one reader of the outbox, which every event stream subscribes to. */
  readonly events: EventFeed;
  readonly metrics: ApiMetrics;
  /** The process's traces, while TRACING_ENABLED is on. */
  readonly tracing?: Tracing;
}

/** Who presented the request's credential, by the credential's type (set by api/auth/middleware.ts). */
export type Principal =
  | {
      readonly type: 'client';
      readonly credentialId: string;
      readonly userId: string;
      /** The version the key is pinned to (docs/api.md "Versions"). */
      readonly apiVersion: ApiVersion;
    }
  | {
      readonly type: 'application';
      readonly credentialId: string;
      readonly userId: string;
      readonly apiVersion: ApiVersion;
    }
  | { readonly type: 'agent'; readonly credentialId: string; readonly hypervisorId: string }
  | { readonly type: 'console_gateway'; readonly credentialId: string };

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    logger: Logger;
    principal: Principal;
    /** The version the request's `Cloudsvc-Version` named, checked (api/middleware/api-version.ts). */
    requestedVersion: ApiVersion | undefined;
    /** The answer's body is rendered in the request's version already (an event list): left as it is. */
    renderedInVersion: boolean | undefined;
  };
}

import type { Client as TemporalClient } from '@temporalio/client';
import type { Database } from '../db/database.js';
import type { CredentialType } from '../domain/credentials.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import type { TaskFeed } from './agent/task-feed.js';
import type { CredentialCache } from './credential-cache.js';

/** What every handler may use; set once at start-up, so tests build an app with their own. */
export interface AppDeps {
  readonly config: Config;
  readonly db: Database;
  readonly temporal: TemporalClient;
  readonly logger: Logger;
  readonly credentials: CredentialCache;
  readonly taskFeed: TaskFeed;
}

export interface Principal {
  readonly credentialId: string;
  readonly type: CredentialType;
  readonly userId: string | null;
  readonly hypervisorId: string | null;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    logger: Logger;
    principal: Principal;
  };
}

import type { Client } from '@temporalio/client';
import type { Database } from '../db/database.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';

/**
 * What a service needs. A route handler or a CLI command parses, calls one service and
 * serializes; the service owns its transaction, the operation compare-and-set, the workflow start
 * and the activity-log entry, and throws only catalogue errors (ApiError).
 */
export interface ServiceDeps {
  readonly db: Database;
  readonly temporal: Client;
  readonly config: Config;
  readonly logger: Logger;
}

import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { buildApp } from '../api/app.js';
import type { AppDeps } from '../api/context.js';
import { type ApiServer, createAppDeps, startApiServer } from '../api/server.js';
import { createDatabase, type Database } from '../db/database.js';
import { upsertImage, upsertLocation, upsertPlan } from '../db/repositories/catalog.js';
import { createCredential } from '../db/repositories/credentials.js';
import { insertHypervisor } from '../db/repositories/hypervisors.js';
import { insertInstance } from '../db/repositories/instances.js';
import { insertIpPool } from '../db/repositories/ip-addresses.js';
import { insertUser } from '../db/repositories/users.js';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database.js';
import type { CredentialType } from '../domain/credentials.js';
import type { InstanceStatus } from '../domain/instances/statuses.js';
import { type Config, configWith } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { installRuntimeLogger } from '../worker/runtime-logger.js';
import { createWorker } from '../worker/worker.js';

/**
 * Builds what a test needs on the run's real PostgreSQL database and Temporal dev server (see
 * global-setup.ts). Each context has its own task queue, so its workflows run on its own worker.
 */
/** One key per test process: whatever seals a password and whatever opens it agree. */
const TEST_SECRETS_KEY = randomBytes(32).toString('base64');

export function testConfig(overrides: Partial<Record<keyof Config, string>> = {}): Config {
  return configWith({
    SECRETS_KEY: TEST_SECRETS_KEY,
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_POOL_SIZE: '4',
    AUTH_CACHE_TTL_MS: '0',
    HOST: '127.0.0.1',
    PORT: '0',
    ...overrides,
  });
}

/**
 * A database of the test file's own, copied from the run's migrated template, for a test that must
 * prove what a request did not change (see `tableDigest`): the run's shared database moves under
 * other files. Pass its `url` as DATABASE_URL; close every pool on it before `drop()`.
 */
export function isolatedDatabase(): Promise<ScratchDatabase> {
  return createScratchDatabase(inject('databaseServerUrl'), 'cloudsvc_isolated', {
    template: inject('databaseTemplate'),
  });
}

/**
 * Every table's row count and a hash of all its rows, in one comparable record: equal digests
 * before and after mean nothing was inserted, changed or deleted.
 */
export async function tableDigest(db: Database): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const digest: Record<string, string> = {};
  for (const { name } of tables.rows) {
    // A row's text form covers every column; sorting it makes the hash independent of storage order.
    const { rows } = await sql<{ count: number; hash: string }>`
      select count(*)::int as count, md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as hash
      from ${sql.table(name)} as t`.execute(db);
    digest[name] = `${rows[0]!.count} rows, md5 ${rows[0]!.hash}`;
  }
  return digest;
}

export const testLogger = (config: Config) => createLogger(config.LOG_LEVEL, { service: 'test' });

export interface TestApp {
  readonly config: Config;
  readonly deps: AppDeps;
  readonly app: ReturnType<typeof buildApp>;
  readonly db: Database;
  close(): Promise<void>;
}

/** An in-process app (requests through `app.request`). */
export async function createTestApp(overrides: Partial<Record<keyof Config, string>> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const deps = await createAppDeps(config, testLogger(config));
  return { config, deps, app: buildApp(deps), db: deps.db, close: () => deps.close() };
}

/** A customer of the stack: the user's id and a client key. */
export interface Customer {
  readonly id: string;
  readonly key: string;
}

export interface CustomerStack {
  readonly t: TestApp;
  /** The customer whose resources a test makes. */
  readonly owner: Customer;
  /** Another customer, who must see none of the owner's resources (the standard 404). */
  readonly stranger: Customer;
  readonly locationId: string;
}

/**
 * What most Client API tests start from: an in-process app, two customers with client keys and a
 * location. `beforeAll(async () => ({ t, owner, stranger, locationId } = await customerStack()))`.
 */
export async function customerStack(
  overrides: Partial<Record<keyof Config, string>> = {},
): Promise<CustomerStack> {
  const t = await createTestApp(overrides);
  const customer = async () => {
    const user = await seed.user(t.db);
    return { id: user.id, key: await seed.key(t.db, user.id, 'client') };
  };
  const [owner, stranger, location] = await Promise.all([customer(), customer(), seed.location(t.db)]);
  return { t, owner, stranger, locationId: location.id };
}

/** A real listening API server, for agent processes and socket-level behaviour. */
export async function startTestServer(
  overrides: Partial<Record<keyof Config, string>> = {},
): Promise<ApiServer & { config: Config }> {
  const config = testConfig(overrides);
  const server = await startApiServer(config, testLogger(config));
  return Object.assign(server, { config });
}

export interface TestWorker {
  readonly worker: Worker;
  stop(): Promise<void>;
}

/** A worker on the context's task queue, running the bundle built once for the whole run. */
let runtimeInstalled = false;

export async function startTestWorker(config: Config): Promise<TestWorker> {
  if (!runtimeInstalled) {
    // The SDK's default logger writes every worker state change to the console.
    installRuntimeLogger(
      createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'warn', { service: 'worker' }),
    );
    runtimeInstalled = true;
  }
  const database = createDatabase({ url: config.DATABASE_URL, poolSize: 4, namedStatements: false });
  const { worker, connection } = await createWorker({
    config,
    db: database.db,
    bundle: { code: readFileSync(inject('workflowBundlePath'), 'utf8') },
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      // Idempotent: a test may stop the worker early (to lose it mid-workflow) and close later.
      if (worker.getState() === 'STOPPED') return;
      worker.shutdown();
      await running;
      await (connection as NativeConnection).close();
      await database.close();
    },
  };
}

/** Seeding through the repositories the app itself uses. */
export const seed = {
  async user(db: Database, options: { admin?: boolean } = {}) {
    const email = `user-${randomUUID()}@example.test`;
    return insertUser(db, { email, name: 'Test User', isAdmin: options.admin ?? false });
  },
  async key(db: Database, userId: string, type: Extract<CredentialType, 'client' | 'application'>) {
    return (await createCredential(db, { type, userId })).token;
  },
  async gatewayCredential(db: Database) {
    return (await createCredential(db, { type: 'console_gateway', label: 'test gateway' })).token;
  },
  async location(db: Database) {
    return upsertLocation(db, { code: `loc-${randomUUID().slice(0, 8)}`, name: 'Test location' });
  },
  async hypervisor(db: Database, locationId?: string, size: { cpuCores?: number } = {}) {
    const location = locationId ?? (await seed.location(db)).id;
    return insertHypervisor(db, {
      name: `hv-${randomUUID().slice(0, 8)}`,
      locationId: location,
      cpuCores: size.cpuCores ?? 32,
      memoryMb: 131072,
      diskMb: 2_000_000,
      capabilities: ['live_migration'],
      storageBackends: ['local'],
    });
  },
  /** A location's address pool; `cidr` of the documentation ranges (RFC 5737 / 3849). */
  /**
   * An IPv4 /24 pool (its .1 the gateway) that no other file of the run has: files share the run's
   * database, and two pools of one range in two locations would hand out one address twice.
   */
  async uniqueIpv4Pool(db: Database, locationId: string) {
    const [a, b] = randomBytes(2);
    return this.ipPool(db, locationId, `10.${a}.${b}.0/24`, `10.${a}.${b}.1`);
  },
  async ipPool(db: Database, locationId: string, cidr: string, gateway: string | null = null) {
    return insertIpPool(db, {
      locationId,
      name: `pool ${cidr}`,
      family: cidr.includes(':') ? 6 : 4,
      cidr,
      gateway,
    });
  },
  /** A plan and an image with codes of their own, for creates through the Client API. */
  async catalog(db: Database, plan: { cpu_cores?: number } = {}) {
    const suffix = randomUUID().slice(0, 8);
    const created = await upsertPlan(db, {
      code: `plan-${suffix}`,
      name: 'Test plan',
      cpu_cores: plan.cpu_cores ?? 1,
      memory_mb: 1024,
      disk_mb: 20480,
    });
    const image = await upsertImage(db, {
      code: `image-${suffix}`,
      name: 'Test image',
      os_family: 'debian',
      min_disk_mb: 2048,
    });
    return { plan: created, image };
  },
  async instance(
    db: Database,
    fields: {
      userId: string;
      locationId: string;
      hypervisorId?: string | null;
      status?: InstanceStatus;
      name?: string;
    },
  ) {
    return insertInstance(db, {
      user_id: fields.userId,
      location_id: fields.locationId,
      hypervisor_id: fields.hypervisorId ?? null,
      name: fields.name ?? 'web-1',
      hostname: 'web-1.example.test',
      status: fields.status ?? 'running',
      cpu_cores: 2,
      memory_mb: 2048,
      disk_mb: 40960,
      primary_ipv4: '203.0.113.10',
      primary_ipv6: null,
      virtualization: 'kvm',
      boot_order: JSON.stringify(['disk', 'cdrom']),
      timezone: 'UTC',
    });
  },
};

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const jsonHeaders = (token: string) => ({ ...bearer(token), 'Content-Type': 'application/json' });

// Response bodies are asserted field by field in tests; `any` keeps those assertions readable.
// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not types
export type Body = any;
export const json = (res: Response): Promise<Body> => res.json() as Promise<Body>;

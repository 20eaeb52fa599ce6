import { z } from 'zod';
import { NETWORK_ADDRESSES_MAX } from '../domain/agent-tasks.js';
import { INT4_MAX } from '../domain/input-bounds.js';
import { invalidNetwork } from '../domain/media/iso-sources.js';
import { FIREWALL_RULES_CEILING } from '../domain/networks/firewall.js';
import { convergenceSettings } from './convergence-settings.js';
import { eventStreamSettings } from './event-stream-settings.js';
import { STACK_PORT_OFFSETS } from './stack-ports.js';
import { tracingSettings } from './tracing.js';
import { webhookSettings } from './webhook-settings.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const ms = z.coerce.number().int().nonnegative();
const port = z.coerce.number().int().min(0).max(65535);

/**
 * Every server-side configuration variable, in one place (docs/configuration.md lists them).
 * The agent, which runs on hypervisors, has its own (agent/config.ts).
 */
const schema = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (npm start provides an embedded one)'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
  DATABASE_NAMED_STATEMENTS: bool.default(true),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('cloudsvc'),
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(8080),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Proxies in front of the API that append to X-Forwarded-For; 0 takes the socket's address. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(16).default(0),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  UNAUTHENTICATED_BODY_LIMIT_BYTES: z.coerce.number().int().min(256).default(4_096),
  AUTH_CACHE_TTL_MS: ms.default(5_000),
  ENROLLMENT_TOKEN_TTL_MS: ms.default(60 * 60 * 1000),
  ENROLLMENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  AGENT_TASK_LEASE_MS: ms.default(30_000),
  AGENT_TASK_HEARTBEAT_TIMEOUT_MS: ms.default(30_000),
  AGENT_TASK_PICKUP_TIMEOUT_MS: ms.default(5 * 60 * 1000),
  TEMPORAL_RPC_TIMEOUT_MS: ms.default(5_000),
  /** The API's /metrics (Prometheus), on a port of its own beside PORT (0: any free port); PORT+3 unless set. */
  METRICS_PORT: port.optional(),
  /** How long each check of /readyz may take before it counts as failing. */
  READINESS_TIMEOUT_MS: ms.min(100).default(2_000),
  /** The worker's own HTTP port, for its /healthz and /readyz (0: any free port); PORT+2 unless set. */
  WORKER_HTTP_PORT: port.optional(),
  /**
   * Where the worker's Temporal SDK serves its own Prometheus metrics (`host:port`; empty: nowhere);
   * 127.0.0.1:PORT+4 unless set (nowhere when PORT is 0).
   */
  WORKER_SDK_METRICS_ADDRESS: z.string().optional(),
  /** OpenTelemetry traces, exported over OTLP/HTTP (docs/operations.md "Traces"). */
  ...tracingSettings,
  OPERATION_RECONCILE_AFTER_MS: ms.default(60_000),
  /**
   * Age after which a reverse DNS change or a released address's PTR deletion that no publishing run
   * answered is taken for a lost wake, and the worker's sweep wakes its location's run.
   */
  RDNS_SWEEP_AFTER_MS: ms.min(1_000).default(300_000),
  /** 32 random bytes, base64: seals instance passwords at rest and in workflow histories. */
  SECRETS_KEY: z.string().optional(),
  /** Providers on a private network without TLS: plain http:// endpoints are accepted. */
  PROVIDER_ALLOW_HTTP: bool.default(false),
  INITIAL_PASSWORD_WINDOW_MS: ms.default(60 * 60 * 1000),
  INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(24).default(24),
  MIGRATION_LEASE_TTL_MS: ms.default(120_000),
  MIGRATION_SOURCE_RETENTION_MS: ms.default(24 * 60 * 60 * 1000),
  MIGRATION_AUTO_LIVE: bool.default(true),
  MIGRATION_TRANSFER_MB_PER_S: z.coerce.number().int().min(1).default(100),
  MIGRATION_LONG_TRANSFER_S: z.coerce.number().int().min(1).default(1800),
  /** A live move's default convergence policy (docs/migration.md "Convergence"). */
  ...convergenceSettings,
  ...webhookSettings,
  ...eventStreamSettings,
  /** Migrations under way out of one hypervisor at once; one more is refused (MIGRATION_SOURCE_BUSY) or waits. */
  MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * The room a guest boots with to grow while it runs (domain/instances/hot-resize.ts ceilingFor):
   * at most this many vCPUs and MB of memory, never below its own size; 0 for either: guests boot
   * without room, and every change of their vCPUs or memory is cold.
   */
  RESIZE_HOT_MAX_CPU_CORES: z.coerce.number().int().min(0).max(512).default(8),
  RESIZE_HOT_MAX_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(0)
    .max(16 * 1024 * 1024)
    .default(16_384),
  /** Whether a customer's plan change may move the instance first when its host lacks the room. */
  RESIZE_CUSTOMER_MOVES: bool.default(false),
  EVACUATION_MAX_PARALLEL: z.coerce.number().int().min(1).max(64).default(4),
  EVACUATION_MAX_PARALLEL_PER_TARGET: z.coerce.number().int().min(1).max(64).default(2),
  EVACUATION_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  EVACUATION_CHECK_EVERY_MS: ms.min(100).default(15_000),
  EVACUATION_MOVES_PER_RUN: z.coerce.number().int().min(1).default(200),
  TRANSFER_TOKEN_TTL_MS: ms.default(60 * 60 * 1000),
  /** The Temporal Web UI, for links to workflow runs in admin views (npm start sets it). */
  TEMPORAL_UI_URL: z.string().url().optional(),
  /** An admin pages' session ends this long after login, however it is used. */
  ADMIN_SESSION_TTL_MS: ms.min(300_000).default(8 * 60 * 60 * 1000),
  /** …or this long after its last request. */
  ADMIN_SESSION_IDLE_MS: ms.min(300_000).default(60 * 60 * 1000),
  ADMIN_LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  AGENT_POLL_MAX_WAIT_MS: ms.default(20_000),
  HYPERVISOR_UNREACHABLE_AFTER_MS: ms.default(60_000),
  /**
   * An agent's inventory changes an instance's status only once its record has been still this long:
   * an inventory taken just before an operation ended would otherwise undo what the operation did.
   */
  GUEST_INVENTORY_SETTLE_MS: ms.max(3_600_000).default(30_000),
  /** Raw metric samples; the 5-minute and 1-hour rollups keep the longer past (domain/metrics/). */
  METRICS_RETENTION_HOURS: z.coerce.number().int().min(1).default(48),
  METRICS_5M_RETENTION_DAYS: z.coerce.number().int().min(1).default(14),
  METRICS_1H_RETENTION_DAYS: z.coerce.number().int().min(1).default(400),
  AGENT_TASK_RETENTION_HOURS: z.coerce.number().int().min(1).default(720),
  SSH_KEYS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Backups and snapshots one instance may hold; one more is refused with SVC-QUOTA-409. */
  MAX_BACKUPS_PER_INSTANCE: z.coerce.number().int().min(1).max(1_000).default(10),
  MAX_SNAPSHOTS_PER_INSTANCE: z.coerce.number().int().min(1).max(100).default(5),
  FIREWALL_RULES_MAX: z.coerce.number().int().min(1).max(FIREWALL_RULES_CEILING).default(50),
  MAX_ADDRESSES_PER_INSTANCE: z.coerce.number().int().min(1).max(NETWORK_ADDRESSES_MAX).default(8),
  /** Private networks one account may hold; one more is refused with SVC-QUOTA-409. */
  MAX_PRIVATE_NETWORKS_PER_USER: z.coerce.number().int().min(1).max(100).default(10),
  /** Volumes one account may hold; one more is refused with SVC-QUOTA-409. */
  MAX_VOLUMES_PER_USER: z.coerce.number().int().min(1).max(1_000).default(20),
  /** The largest volume a customer may make or grow one to, in MB (1 TiB by default). */
  VOLUME_MAX_SIZE_MB: z.coerce.number().int().min(1024).max(INT4_MAX).default(1_048_576),
  /** ISO images one instance's library holds; one more is refused with SVC-QUOTA-409. */
  MAX_ISOS_PER_INSTANCE: z.coerce.number().int().min(1).max(100).default(5),
  /** The largest ISO an agent fetches, in MB; a larger one fails its fetch (ISO_TOO_LARGE). */
  ISO_MAX_SIZE_MB: z.coerce.number().int().min(1).max(INT4_MAX).default(8192),
  /** The largest image version's disk an agent fetches, in MB; a larger one fails (IMAGE_TOO_LARGE). */
  IMAGE_MAX_SIZE_MB: z.coerce.number().int().min(1).max(INT4_MAX).default(20480),
  /**
   * How many hypervisors of a location must hold an image version ready before new orders there
   * take it (docs/api.md "Image versions"); at least 1.
   */
  IMAGE_MIN_READY_HOSTS: z.coerce.number().int().min(1).max(1000).default(1),
  /**
   * Age after which a deleted version's copy still on an online hypervisor (its removal's start
   * lost, refused while a guest used it, or its retries spent) is asked for again by the worker's
   * sweep, every half of it (docs/api.md "Deleted versions' copies").
   */
  IMAGE_COPY_RETRY_AFTER_MS: ms.min(1_000).default(600_000),
  /** Whether ISO URLs may be `http` besides `https`. */
  ISO_ALLOW_HTTP: bool.default(false),
  /**
   * Networks (CIDRs, comma-separated) an ISO may be fetched from besides public addresses: an
   * internal mirror. None by default: private, loopback and link-local addresses are refused.
   */
  ISO_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .refine((networks) => invalidNetwork(networks) === undefined, { message: 'Each entry must be a CIDR.' }),
  MAX_BACKUP_SCHEDULES_PER_INSTANCE: z.coerce.number().int().min(1).max(100).default(5),
  /** How late a schedule's missed run may still be taken (after Temporal was down); Temporal's minimum is 10 s. */
  BACKUP_SCHEDULE_CATCHUP_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .default(60 * 60 * 1000),
  MAX_SCHEDULED_ACTIONS_PER_INSTANCE: z.coerce.number().int().min(1).max(100).default(10),
  /** How late a scheduled power action missed while Temporal was down may still run (minimum 10 s). */
  SCHEDULED_ACTION_CATCHUP_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .default(10 * 60 * 1000),
  /**
   * Where browsers reach the console gateway (its WebSocket endpoint), handed out with each console
   * session; unset, sessions cannot be made (SVC-CONFIG-503). npm start sets it.
   */
  CONSOLE_GATEWAY_URL: z.string().url().optional(),
  /** How long a console session's connect token may wait for its gateway to redeem it. */
  CONSOLE_CONNECT_TTL_MS: ms.min(1_000).default(60_000),
  /** The longest a console session lasts, connected or not; then it ends `expired`. */
  CONSOLE_SESSION_TTL_MS: ms.min(1_000).default(15 * 60 * 1000),
  /** A live session whose gateway has not heartbeated it for this long ends `gateway_lost`. */
  CONSOLE_HEARTBEAT_TIMEOUT_MS: ms.min(1_000).default(30_000),
  /** Console sessions one instance has live at once; one more is refused with SVC-QUOTA-409. */
  MAX_CONSOLE_SESSIONS_PER_INSTANCE: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Requests one console-gateway credential may make a minute to the internal API (429 beyond). */
  CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1_200),
});

/**
 * The ports not set take their place beside PORT by the stacks' one rule (platform/stack-ports.ts),
 * so that processes on another PORT move all of their listeners with it.
 */
const withPorts = schema.transform((settings, context) => {
  const beside = (name: string, offset: number) => {
    const derived = settings.PORT === 0 ? 0 : settings.PORT + offset;
    if (derived > 65535)
      context.addIssue({
        code: 'custom',
        path: [name],
        message: `PORT+${offset} is beyond 65535: set ${name}`,
      });
    return derived;
  };
  const sdkAddress = () => {
    const sdkPort = beside('WORKER_SDK_METRICS_ADDRESS', STACK_PORT_OFFSETS.workerSdkMetrics);
    return sdkPort === 0 ? '' : `127.0.0.1:${sdkPort}`;
  };
  return {
    ...settings,
    METRICS_PORT: settings.METRICS_PORT ?? beside('METRICS_PORT', STACK_PORT_OFFSETS.metrics),
    WORKER_HTTP_PORT: settings.WORKER_HTTP_PORT ?? beside('WORKER_HTTP_PORT', STACK_PORT_OFFSETS.worker),
    WORKER_SDK_METRICS_ADDRESS: settings.WORKER_SDK_METRICS_ADDRESS ?? sdkAddress(),
  };
});

export type Config = z.infer<typeof withPorts>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = withPorts.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid configuration:\n${problems}`);
  }
  return parsed.data;
}

/** A configuration for code that builds one programmatically (tests, bench, npm start). */
export function configWith(overrides: Partial<Record<keyof Config, string>>): Config {
  return loadConfig({ ...process.env, ...overrides });
}

import { z } from 'zod';
import { AGENT_TASK_TYPES } from '../domain/agent-tasks.js';
import { HYPERVISOR_CAPABILITIES } from '../domain/hypervisors.js';
import { tracingSettings } from '../platform/tracing.js';
import { defaultImageStore } from './drivers/qemu/artifacts/image-store.js';
import { ACCELERATOR_SETTINGS } from './drivers/qemu/guests/accelerator.js';
import { GUEST_NETWORKS } from './drivers/qemu/network/guest-network.js';

export const FAULT_MODES = [
  'fail',
  'fail-permanently',
  'fail-after',
  'hang',
  'crash-before',
  'crash-after',
  'corrupt',
] as const;
const FaultMode = z.enum(FAULT_MODES);

/**
 * The agent's configuration (it runs on a hypervisor, apart from the panel). The simulated
 * driver's latency and faults are set here too, so tests and demos rehearse every failure.
 */
const schema = z.object({
  AGENT_PANEL_URL: z.string().url(),
  AGENT_STATE_DIR: z.string().min(1),
  AGENT_ENROLLMENT_TOKEN: z.string().optional(),
  AGENT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  AGENT_METRICS_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * The guests the host holds go to the panel at start, whenever they change (looked at locally
   * every heartbeat) and at least this often: not with every heartbeat, which stays cheap.
   */
  AGENT_INVENTORY_INTERVAL_MS: z.coerce.number().int().min(1000).default(300_000),
  AGENT_CAPABILITIES: z
    .string()
    .default('live_migration,console_serial')
    .transform((s) =>
      s
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(HYPERVISOR_CAPABILITIES))),
  AGENT_CAPACITY: z
    .string()
    .default('{"cpu_cores":32,"memory_mb":131072,"disk_mb":2000000}')
    .transform((s) => JSON.parse(s) as unknown)
    .pipe(z.object({ cpu_cores: z.number().int(), memory_mb: z.number().int(), disk_mb: z.number().int() })),
  /** Per task type latency in ms, e.g. {"instance.create":2000,"default":200}. */
  AGENT_SIM_LATENCY_MS: z
    .string()
    .default('{"default":200}')
    .transform((s) => JSON.parse(s) as unknown)
    .pipe(z.record(z.string(), z.number().int().nonnegative())),
  /**
   * How long a simulated disk transfer takes per GB of the disk (a migration's `disk.transfer`, on
   * top of its latency): a rehearsal of evacuations sees moves last as long as their disks are big.
   */
  AGENT_SIM_TRANSFER_MS_PER_GB: z.coerce.number().int().nonnegative().default(0),
  /**
   * Faults by task type, e.g. {"instance.power":{"mode":"crash-after","times":1}}. Modes: fail
   * (a retryable failure), fail-permanently, fail-after (the change is applied, then the task fails
   * permanently, as a hypervisor that errs after acting), hang (never finishes; keeps reporting progress),
   * crash-before / crash-after (the process exits before / after the change is applied), corrupt
   * (a backup or snapshot task damages the artifact it names: after writing it, or before reading it).
   * `times` counts across restarts (kept in the state file); absent means always. Faults can also
   * be armed while the agent runs (the simulated driver's faults file).
   */
  AGENT_SIM_FAULTS: z
    .string()
    .default('{}')
    .transform((s) => JSON.parse(s) as unknown)
    .pipe(
      z.partialRecord(
        z.enum(AGENT_TASK_TYPES),
        z.object({ mode: FaultMode, times: z.number().int().positive().optional() }),
      ),
    ),
  /**
   * The simulated location's backup store: where backups are kept, apart from any hypervisor.
   * Agents of one location share it, so an instance restored from a backup may land on any host.
   */
  AGENT_SIM_BACKUP_DIR: z.string().min(1).optional(),
  /** `simulated` (the default: no guest really runs) or `qemu` (one QEMU process per guest). */
  AGENT_DRIVER: z.enum(['simulated', 'qemu']).default('simulated'),
  /**
   * The hypervisor's images: one directory per panel image code, each with `vmlinuz`,
   * `initrd.img`, `disk.qcow2` and optionally `cmdline` (image-store.ts); scripts/images/ build two.
   */
  AGENT_QEMU_IMAGE_STORE: z
    .string()
    .min(1)
    .default(() => defaultImageStore()),
  /**
   * `auto` boots the guest kernel under KVM at start and takes KVM if it prints its first line
   * within a few seconds, TCG otherwise (accelerator.ts); `kvm` and `tcg` are taken unprobed.
   */
  AGENT_QEMU_ACCEL: z.enum(ACCELERATOR_SETTINGS).default('auto'),
  /** The address the agent's migration listener binds to and other agents reach it by. */
  AGENT_QEMU_LISTEN_HOST: z.string().min(1).default('127.0.0.1'),
  /** How long a guest has to shut down after the ACPI power button before QEMU is told to quit. */
  AGENT_QEMU_STOP_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /**
   * What backs each guest's NIC: `user` (QEMU's user-mode network, restricted: DHCP, no way to the
   * host or beyond), `bridged` (a tap on a bridge in the network namespace AGENT_QEMU_NETNS, with
   * the panel's addresses, private networks and firewall applied; needs root) or `none` (the NIC
   * without a cable). Agents that move guests live to each other need the same.
   */
  AGENT_QEMU_NETWORK: z.enum(GUEST_NETWORKS).default('user'),
  /** With the `bridged` network: the network namespace of the guests' bridges, made if absent. */
  AGENT_QEMU_NETNS: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/)
    .default('cloudsvc'),
  /**
   * With the `user` network: each guest's port 22 forwarded from a free port on the host's
   * loopback, written to `ssh-port` in its directory at each boot (for trying and testing guests).
   */
  AGENT_QEMU_SSH_FORWARD: z
    .enum(['on', 'off'])
    .default('off')
    .transform((v) => v === 'on'),
  /** QEMU guests' backup store (default AGENT_STATE_DIR/backups): the agents of a location share it. */
  AGENT_QEMU_BACKUP_DIR: z.string().min(1).optional(),
  /**
   * Where each storage backend keeps QEMU guests' disks, e.g. {"nfs":"/mnt/nfs/cloudsvc"}; a backend
   * not named is AGENT_STATE_DIR/backends/<backend>, and `local` is the guest's own directory.
   */
  AGENT_QEMU_BACKEND_DIRS: z
    .string()
    .default('{}')
    .transform((s) => JSON.parse(s) as unknown)
    .pipe(z.record(z.string(), z.string().min(1))),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** OpenTelemetry traces of the tasks it runs, over OTLP/HTTP, as the panel's processes do. */
  ...tracingSettings,
});

export type AgentConfig = z.infer<typeof schema>;
export type FaultMode = z.infer<typeof FaultMode>;

export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid agent configuration:\n${problems}`);
  }
  return parsed.data;
}

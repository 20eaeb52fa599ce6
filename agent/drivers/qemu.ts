import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TASKS, type AgentTaskParams, type AgentTaskType } from '../../domain/agent-tasks.js';
import type { AgentConfig } from '../config.js';
import { sleep } from '../panel-client.js';
import { StateFile } from '../state-file.js';
import {
  type Capacity,
  DriverFailure,
  type HypervisorDriver,
  type InstanceSample,
  type TaskContext,
} from './driver.js';
import { type AcceleratorChoice, chooseAccelerator } from './qemu/accelerator.js';
import { ArtifactShelf, GuestRestores } from './qemu/artifacts.js';
import { copyDiskNow } from './qemu/disk-copies.js';
import { askGuest, GuestChannelSilent } from './qemu/guest-channel.js';
import {
  freePort,
  type GuestShape,
  guestAlive,
  guestFiles,
  guestMac,
  guestPid,
  killGuest,
  launchGuest,
  runStatus,
  stopGuest,
} from './qemu/guest-process.js';
import { copyDisk, fileSizeMb, type GuestImage, guestImage, sha256File } from './qemu/images.js';
import {
  dropPendingReset,
  keepPendingReset,
  pendingReset,
  receivePendingReset,
  settlePendingReset,
} from './qemu/pending-password.js';
import { Qmp } from './qemu/qmp.js';
import { passwordSalt, sha512Crypt } from './qemu/sha512-crypt.js';
import {
  announceIncoming,
  type IncomingPorts,
  type PasswordHandoff,
  pullDisk,
  pullPasswordHandoff,
  secretMatches,
  TransferChannel,
} from './qemu/transfer-channel.js';

export interface QemuInstance {
  /** Where its disk, QMP socket, pid file and console log are. */
  dir: string;
  hostname: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  image: string;
  created_at: string;
  last_rebuild_id: string | null;
  /**
   * Keys the salt of the root password's hash (see passwordSalt); made at the first password set
   * here, so older state has none.
   */
  password_key?: string;
}

/** A guest arriving by migration, by migration id. */
export interface QemuIncoming {
  instance_id: string;
  hostname: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  dir: string;
  /** Learnt once, by redeeming the transfer token; kept for the final sync of a cold move. */
  endpoint: string | null;
  checksum: string | null;
  network_ready: boolean;
  defined: boolean;
  started: boolean;
  /** Where the waiting guest listens, once started for a live move (said again if the task repeats). */
  listening?: IncomingPorts;
  /**
   * Whether the source's password handoff (the hashes for boots the guest has not had yet) is in
   * the guest's directory here; the key of its salts waits here for the instance.
   */
  password_received?: boolean;
  password_key?: string | null;
}

/** A disk offered to a migration's target, by migration id. */
export interface QemuExport {
  instance_id: string;
  secret: string;
  path: string;
  checksum: string;
  /** A running guest's copy is of a moment; once the guest is stopped, a fresh one is taken. */
  of_running_guest: boolean;
  /** Where the target's guest waits for the live migration, once it said so. */
  target: IncomingPorts | null;
  downtime_ms: number | null;
  /**
   * The guest's directory when its disk was offered: the copy the cleanup removes, even if the
   * instance has come back here by another migration since.
   */
  dir?: string;
}

export interface QemuState {
  instances: Record<string, QemuInstance>;
  incoming: Record<string, QemuIncoming>;
  exports: Record<string, QemuExport>;
  channel_port: number | null;
}

export const qemuStatePath = (stateDir: string) => join(stateDir, 'qemu-hypervisor.json');

type Config = Pick<
  AgentConfig,
  | 'AGENT_STATE_DIR'
  | 'AGENT_CAPACITY'
  | 'AGENT_QEMU_IMAGE_DIR'
  | 'AGENT_QEMU_LISTEN_HOST'
  | 'AGENT_QEMU_ACCEL'
  | 'AGENT_QEMU_STOP_TIMEOUT_MS'
> &
  Partial<Pick<AgentConfig, 'AGENT_QEMU_BACKUP_DIR' | 'AGENT_QEMU_NETWORK'>>;

/**
 * How long a password set waits for the guest to answer on its channel: a guest just started
 * answers once booted, which under TCG takes seconds.
 */
const GUEST_CHANNEL_WAIT_MS = 60_000;

/**
 * How long after a boot the agent looks on the console for the guest's word that it applied a
 * reset made while it was stopped; one booting slower is settled by its next task or boot.
 */
const RESET_ACK_WAIT_MS = 180_000;

/**
 * A real hypervisor: one QEMU process per guest, controlled over QMP, its qcow2 disk copied from
 * the guest image's base disk. Everything it knows is in files under AGENT_STATE_DIR (its state
 * file, and per guest its directory with the pid file and QMP socket), so a restarted agent finds
 * its guests running where it left them. Every task is idempotent: it looks at what is there
 * (the disk, the process) before it changes anything.
 */
export class QemuDriver implements HypervisorDriver {
  readonly #file: StateFile<QemuState>;
  readonly #state: QemuState;
  readonly #image: GuestImage;
  readonly #channel: TransferChannel;
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #cpuTimes = new Map<string, { ticks: number; at: number }>();
  /** The guests' disk counters as QMP last gave them, and as the last sample reported them. */
  readonly #diskCounters = new Map<string, { read: number; written: number }>();
  readonly #diskReported = new Map<string, { read: number; written: number }>();
  /** The location's backup store: agents of a location share it (AGENT_QEMU_BACKUP_DIR). */
  readonly #backups: ArtifactShelf;
  /** Guests just booted with a waiting password reset, looked at until they say they applied it. */
  readonly #resetWatches = new Map<string, NodeJS.Timeout>();

  private constructor(
    private readonly config: Config,
    /** What the guests run under, and why (AGENT_QEMU_ACCEL, the probe). */
    readonly acceleration: AcceleratorChoice,
    image: GuestImage,
  ) {
    this.#image = image;
    this.#backups = new ArtifactShelf(
      config.AGENT_QEMU_BACKUP_DIR ?? join(config.AGENT_STATE_DIR, 'backups'),
      {
        code: 'BACKUP_NOT_FOUND',
        message: 'the backup is not in the store',
      },
    );
    this.#file = new StateFile(qemuStatePath(config.AGENT_STATE_DIR), () => ({
      instances: {},
      incoming: {},
      exports: {},
      channel_port: null,
    }));
    this.#state = this.#file.read();
    this.#channel = new TransferChannel(config.AGENT_QEMU_LISTEN_HOST, {
      disk: (migrationId, secret) => this.#offerDisk(migrationId, secret),
      incoming: async (migrationId, secret, ports) => {
        const offered = this.#state.exports[migrationId];
        if (!offered || !secretMatches(offered.secret, secret)) return false;
        offered.target = ports;
        this.#save();
        return true;
      },
      password: async (migrationId, secret) => {
        const offered = this.#state.exports[migrationId];
        if (!offered || !secretMatches(offered.secret, secret)) return undefined;
        return this.#passwordHandoff(offered);
      },
    });
  }

  /** The driver, once QEMU and the guest image are found and the accelerator chosen. */
  static async start(config: Config): Promise<QemuDriver> {
    const image = guestImage(config.AGENT_QEMU_IMAGE_DIR);
    if (!image)
      throw new Error(
        `no guest image in ${config.AGENT_QEMU_IMAGE_DIR}: build it with scripts/guest-image.sh`,
      );
    const acceleration = await chooseAccelerator(config.AGENT_QEMU_ACCEL, image.kernel);
    const driver = new QemuDriver(config, acceleration, image);
    // Guests that booted while their agent was away may have applied a waiting reset meanwhile.
    for (const [id, instance] of Object.entries(driver.#state.instances))
      if (!settlePendingReset(instance.dir) && guestAlive(instance.dir))
        driver.#watchPendingReset(id, instance);
    // Endpoints handed out before a restart name this port: the listener comes back on it.
    if (Object.keys(driver.#state.exports).length > 0) await driver.#openChannel();
    return driver;
  }

  /** The driver's state as it stands (for tests and operators). */
  snapshot(): QemuState {
    return structuredClone(this.#state);
  }

  /** The directory of an instance's guest: its disk, console log, QMP socket. */
  guestDir(instanceId: string): string | undefined {
    return this.#state.instances[instanceId]?.dir;
  }

  close(): void {
    this.#channel.close();
    for (const timer of this.#resetWatches.values()) clearTimeout(timer);
    this.#resetWatches.clear();
  }

  async execute(type: AgentTaskType, rawParams: unknown, ctx: TaskContext): Promise<Record<string, unknown>> {
    const parsed = AGENT_TASKS[type].params.safeParse(rawParams);
    if (!parsed.success) throw new DriverFailure('INVALID_PARAMS', parsed.error.message, false);
    const p = parsed.data as Record<string, unknown>;
    // Tasks on one guest run one at a time; guests do not wait for each other.
    const key = String(p.instance_id ?? type);
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(() => this.#run(type, p, ctx));
    this.#locks.set(key, current);
    try {
      return await current;
    } finally {
      if (this.#locks.get(key) === current) this.#locks.delete(key);
    }
  }

  freeCapacity(): Capacity {
    // An arrived guest is counted once, as an instance.
    const arriving = Object.values(this.#state.incoming).filter((i) => !i.started);
    const sizes = [...Object.values(this.#state.instances), ...arriving];
    const used = sizes.reduce(
      (sum, i) => ({ cpu: sum.cpu + i.cpu_cores, mem: sum.mem + i.memory_mb, disk: sum.disk + i.disk_mb }),
      { cpu: 0, mem: 0, disk: 0 },
    );
    const total = this.config.AGENT_CAPACITY;
    return {
      cpu_cores: Math.max(0, total.cpu_cores - used.cpu),
      memory_mb: Math.max(0, total.memory_mb - used.mem),
      disk_mb: Math.max(0, total.disk_mb - used.disk),
    };
  }

  /** CPU and memory of each running guest from its QEMU process, as the host sees it. */
  sample(now: Date): InstanceSample[] {
    const samples: InstanceSample[] = [];
    const hz = 100;
    for (const [id, instance] of Object.entries(this.#state.instances)) {
      const pid = guestPid(instance.dir);
      if (!pid) continue;
      let ticks = 0;
      let rssKb = 0;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks = Number(fields[11]) + Number(fields[12]);
        rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      } catch {
        continue;
      }
      const last = this.#cpuTimes.get(id);
      this.#cpuTimes.set(id, { ticks, at: now.getTime() });
      const elapsedS = last ? (now.getTime() - last.at) / 1000 : 0;
      const cpu = last && elapsedS > 0 ? ((ticks - last.ticks) / hz / elapsedS) * 100 : 0;
      samples.push({
        instance_uuid: id,
        sampled_at: now.toISOString(),
        cpu_percent: Math.round(Math.max(0, cpu) * 10) / 10,
        memory_used_mb: Math.min(instance.memory_mb, Math.round(rssKb / 1024)),
        ...this.#diskSince(id),
        net_rx_bytes: 0,
        net_tx_bytes: 0,
      });
    }
    void this.#refreshDiskCounters(samples.map((s) => s.instance_uuid));
    return samples;
  }

  /** Bytes the guest read and wrote since the previous sample (QMP's counters, read after each sample). */
  #diskSince(instanceId: string): { disk_read_bytes: number; disk_write_bytes: number } {
    const now = this.#diskCounters.get(instanceId);
    const before = this.#diskReported.get(instanceId);
    if (now) this.#diskReported.set(instanceId, now);
    if (!now || !before) return { disk_read_bytes: 0, disk_write_bytes: 0 };
    return {
      disk_read_bytes: Math.max(0, now.read - before.read),
      disk_write_bytes: Math.max(0, now.written - before.written),
    };
  }

  async #refreshDiskCounters(instanceIds: string[]): Promise<void> {
    for (const id of instanceIds) {
      const dir = this.#state.instances[id]?.dir;
      if (!dir) continue;
      try {
        const stats = await Qmp.with(guestFiles(dir).qmp, (qmp) =>
          qmp.execute<{ stats: { rd_bytes: number; wr_bytes: number } }[]>('query-blockstats'),
        );
        this.#diskCounters.set(id, {
          read: stats.reduce((sum, s) => sum + s.stats.rd_bytes, 0),
          written: stats.reduce((sum, s) => sum + s.stats.wr_bytes, 0),
        });
      } catch {
        // A guest stopping between the sample and the query: its counters end with it.
        this.#diskCounters.delete(id);
        this.#diskReported.delete(id);
      }
    }
  }

  async #run(
    type: AgentTaskType,
    p: Record<string, unknown>,
    ctx: TaskContext,
  ): Promise<Record<string, unknown>> {
    const artifactWork = this.#artifactTask(type as string, p);
    if (artifactWork) return artifactWork;
    switch (type) {
      case 'instance.create':
        return this.#create(p as AgentTaskParams<'instance.create'>);
      case 'instance.power':
        return this.#power(p as AgentTaskParams<'instance.power'>);
      case 'instance.delete':
        return this.#delete(p as AgentTaskParams<'instance.delete'>);
      case 'instance.rebuild':
        return this.#rebuild(p as AgentTaskParams<'instance.rebuild'>);
      case 'instance.set_password':
        return this.#setPassword(p as AgentTaskParams<'instance.set_password'>, ctx);
      case 'hypervisor.probe':
        return { instances: Object.keys(this.#state.instances).length };
      case 'migration.prepare_target':
        return this.#prepareTarget(p as AgentTaskParams<'migration.prepare_target'>);
      case 'disk.export':
        return this.#exportDisk(p as AgentTaskParams<'disk.export'>);
      case 'disk.transfer':
        return this.#transferDisk(p as AgentTaskParams<'disk.transfer'>, ctx);
      case 'disk.verify':
        return this.#verifyDisk(p as AgentTaskParams<'disk.verify'>);
      case 'network.prepare': {
        // Nothing on the host to make ready: the NIC's MAC comes from the instance id (the same
        // here as on the source), user-mode networking has no host side, and the panel's
        // addresses are not given to guests: they stay with the panel's books.
        const incoming = this.#incoming(String(p.migration_id));
        incoming.network_ready = true;
        this.#save();
        return { prepared: true };
      }
      case 'network.release': {
        const incoming = this.#state.incoming[String(p.migration_id)];
        if (incoming) incoming.network_ready = false;
        this.#save();
        return { released: true };
      }
      case 'migration.define_target':
        return this.#defineTarget(p as AgentTaskParams<'migration.define_target'>, ctx);
      case 'migration.live':
        return this.#migrateLive(p as AgentTaskParams<'migration.live'>, ctx);
      case 'migration.start_target':
        return this.#startTarget(p as AgentTaskParams<'migration.start_target'>);
      case 'migration.verify_target':
        return { power_state: await this.#powerState(this.#existing(String(p.instance_id)).dir) };
      case 'migration.discard_target':
        return this.#discardTarget(p as AgentTaskParams<'migration.discard_target'>);
      case 'migration.cleanup_source':
        return this.#cleanupSource(p as AgentTaskParams<'migration.cleanup_source'>);
      default:
        throw new DriverFailure('NOT_SUPPORTED', `the QEMU driver does not run ${type} yet`, false);
    }
  }

  #save(): void {
    this.#file.write(this.#state);
  }

  #existing(instanceId: string): QemuInstance {
    const instance = this.#state.instances[instanceId];
    if (!instance)
      throw new DriverFailure('INSTANCE_NOT_FOUND', 'no such instance on this hypervisor', false);
    return instance;
  }

  #incoming(migrationId: string): QemuIncoming {
    const incoming = this.#state.incoming[migrationId];
    if (!incoming)
      throw new DriverFailure(
        'MIGRATION_NOT_PREPARED',
        'the target was not prepared for this migration',
        false,
      );
    return incoming;
  }

  #fits(need: { cpu_cores: number; memory_mb: number; disk_mb: number }): boolean {
    const free = this.freeCapacity();
    return (
      free.cpu_cores >= need.cpu_cores && free.memory_mb >= need.memory_mb && free.disk_mb >= need.disk_mb
    );
  }

  async #powerState(dir: string): Promise<'running' | 'stopped'> {
    const status = await runStatus(dir);
    return status === undefined || status === 'postmigrate' || status === 'shutdown' ? 'stopped' : 'running';
  }

  #shape(instanceId: string, i: { cpu_cores: number; memory_mb: number }): GuestShape {
    return {
      name: instanceId,
      cpu_cores: i.cpu_cores,
      memory_mb: i.memory_mb,
      mac: guestMac(instanceId),
      network: this.config.AGENT_QEMU_NETWORK ?? 'user',
    };
  }

  async #boot(instanceId: string, instance: QemuInstance): Promise<void> {
    if (guestAlive(instance.dir)) return;
    try {
      await launchGuest(
        instance.dir,
        this.#shape(instanceId, instance),
        this.#image,
        this.acceleration.accelerator,
      );
    } catch (error) {
      throw new DriverFailure('GUEST_START_FAILED', (error as Error).message, true);
    }
    this.#watchPendingReset(instanceId, instance);
  }

  /**
   * Drops a waiting password reset once the booted guest has said it applied it. Its id stays on
   * the guest's disk, so until then a reboot with the same fw_cfg file changes nothing.
   */
  #watchPendingReset(instanceId: string, instance: QemuInstance): void {
    if (this.#resetWatches.has(instanceId) || !pendingReset(instance.dir)) return;
    const deadline = Date.now() + RESET_ACK_WAIT_MS;
    const look = () => {
      this.#resetWatches.delete(instanceId);
      if (settlePendingReset(instance.dir) || !guestAlive(instance.dir) || Date.now() > deadline) return;
      const timer = setTimeout(look, 1000);
      timer.unref();
      this.#resetWatches.set(instanceId, timer);
    };
    look();
  }

  async #create(p: AgentTaskParams<'instance.create'>) {
    const fromBackup = (p as { from_backup?: { backup_id: string; checksum: string } }).from_backup;
    let instance = this.#state.instances[p.instance_id];
    if (!instance) {
      if (!this.#fits(p))
        throw new DriverFailure(
          'INSUFFICIENT_CAPACITY',
          'the hypervisor lacks the capacity for this instance',
          false,
        );
      const dir = join(this.config.AGENT_STATE_DIR, 'guests', p.instance_id);
      mkdirSync(dir, { recursive: true });
      const { disk } = guestFiles(dir);
      if (!existsSync(disk)) {
        if (fromBackup) {
          // Restored as a new instance: only from a backup that still is what was written.
          const { checksum } = await this.#backups.read(fromBackup.backup_id);
          if (checksum !== fromBackup.checksum)
            throw new DriverFailure('BACKUP_CORRUPT', 'the backup does not match its checksum', false);
          await copyDisk(this.#backups.path(fromBackup.backup_id), disk, p.disk_mb);
        } else {
          await copyDisk(this.#image.baseDisk, disk, p.disk_mb);
        }
      }
      instance = {
        dir,
        hostname: p.hostname,
        cpu_cores: p.cpu_cores,
        memory_mb: p.memory_mb,
        disk_mb: p.disk_mb,
        image: p.image,
        created_at: new Date().toISOString(),
        last_rebuild_id: null,
        password_key: randomBytes(32).toString('hex'),
      };
      this.#writeFirstPassword(instance, p.root_password);
      this.#state.instances[p.instance_id] = instance;
      this.#save();
      if (p.start) await this.#boot(p.instance_id, instance);
    }
    return { power_state: await this.#powerState(instance.dir) };
  }

  // --- Backups, snapshots and restores -------------------------------------------------------

  /**
   * The backup, snapshot and restore tasks, by name: the disk copied as a file (a consistent
   * copy of a running guest's), its checksum the SHA-256 of that file, so a backup restored is
   * byte for byte what was written.
   */
  #artifactTask(type: string, p: Record<string, unknown>): Promise<Record<string, unknown>> | undefined {
    const id = (key: string) => String(p[key]);
    const snapshots = (instance: QemuInstance) =>
      new ArtifactShelf(join(instance.dir, 'snapshots'), {
        code: 'SNAPSHOT_NOT_FOUND',
        message: 'no such snapshot of the instance',
      });
    const instanceId = id('instance_id');
    const stop = (instance: QemuInstance) => () =>
      stopGuest(instance.dir, this.config.AGENT_QEMU_STOP_TIMEOUT_MS);
    const boot = (instance: QemuInstance) => () => this.#boot(instanceId, instance);
    switch (type) {
      case 'backup.create':
        return this.#backups.take(this.#existing(instanceId).dir, id('backup_id')).then((f) => ({ ...f }));
      case 'backup.verify':
        return this.#backups.read(id('backup_id')).then((f) => ({ ...f }));
      case 'backup.delete':
        return Promise.resolve({ deleted: this.#backups.remove(id('backup_id')) });
      case 'backup.restore': {
        const instance = this.#existing(instanceId);
        const source = this.#backups.has(id('backup_id')) ? this.#backups.path(id('backup_id')) : undefined;
        return new GuestRestores(instance.dir).stage(id('restore_id'), source, {
          code: 'BACKUP_NOT_FOUND',
          message: 'the backup is not in the store',
        });
      }
      case 'snapshot.create': {
        const instance = this.#existing(instanceId);
        return snapshots(instance)
          .take(instance.dir, id('snapshot_id'))
          .then((f) => ({ ...f }));
      }
      case 'snapshot.delete': {
        const instance = this.#state.instances[instanceId];
        return Promise.resolve({ deleted: instance ? snapshots(instance).remove(id('snapshot_id')) : false });
      }
      case 'snapshot.restore': {
        const instance = this.#existing(instanceId);
        const shelf = snapshots(instance);
        const source = shelf.has(id('snapshot_id')) ? shelf.path(id('snapshot_id')) : undefined;
        return new GuestRestores(instance.dir).stage(id('restore_id'), source, {
          code: 'SNAPSHOT_NOT_FOUND',
          message: 'no such snapshot of the instance',
        });
      }
      case 'disk.swap': {
        const instance = this.#existing(instanceId);
        // The restored disk keeps the backup's password: a restore is newer than a reset still
        // waiting for a boot, which is dropped before the restored disk can boot with it.
        const stopAndDropReset = () => stop(instance)().then(() => dropPendingReset(instance.dir));
        return new GuestRestores(instance.dir)
          .swap(id('restore_id'), stopAndDropReset, boot(instance))
          .then(async ({ checksum }) => ({ power_state: await this.#powerState(instance.dir), checksum }));
      }
      case 'disk.revert': {
        const instance = this.#state.instances[instanceId];
        if (!instance) return Promise.resolve({ reverted: false });
        return new GuestRestores(instance.dir)
          .revert(id('restore_id'), stop(instance), boot(instance))
          .then((reverted) => ({ reverted }));
      }
      case 'disk.release': {
        const instance = this.#state.instances[instanceId];
        return Promise.resolve({
          released: instance ? new GuestRestores(instance.dir).release(id('restore_id')) : false,
        });
      }
      default:
        return undefined;
    }
  }

  async #power(p: AgentTaskParams<'instance.power'>) {
    const instance = this.#existing(p.instance_id);
    settlePendingReset(instance.dir);
    switch (p.action) {
      case 'start':
        await this.#boot(p.instance_id, instance);
        break;
      case 'stop':
        await stopGuest(instance.dir, this.config.AGENT_QEMU_STOP_TIMEOUT_MS);
        break;
      case 'kill':
        await killGuest(instance.dir);
        break;
      case 'restart':
        await stopGuest(instance.dir, this.config.AGENT_QEMU_STOP_TIMEOUT_MS);
        await this.#boot(p.instance_id, instance);
        break;
    }
    return { power_state: await this.#powerState(instance.dir) };
  }

  async #delete(p: AgentTaskParams<'instance.delete'>) {
    const instance = this.#state.instances[p.instance_id];
    if (!instance) return { deleted: false };
    await killGuest(instance.dir);
    rmSync(instance.dir, { recursive: true, force: true });
    delete this.#state.instances[p.instance_id];
    this.#save();
    return { deleted: true };
  }

  /**
   * The root password, hashed here (SHA-512 crypt), so the plaintext goes no further than this
   * process. The salt is keyed per guest, so the same password delivered twice leaves the same
   * line and reports no change. A running guest writes it into the /etc/shadow on its disk when
   * the hash reaches it through its channel. A stopped guest's waits in its directory for its next
   * boot (fw_cfg), which applies it once: starting someone's guest to change it, or editing its
   * filesystem from the host, would be worse. The newest reset wins: a waiting one is replaced by
   * the next made while stopped, and dropped by one made over the channel (the boot applied it
   * before the channel opened).
   */
  async #setPassword(p: AgentTaskParams<'instance.set_password'>, ctx: TaskContext) {
    const instance = this.#existing(p.instance_id);
    settlePendingReset(instance.dir);
    const hash = this.#passwordHash(instance, p.root_password);
    if (!guestAlive(instance.dir)) return keepPendingReset(instance.dir, hash);
    const answer = await askGuest(
      instance.dir,
      { verb: 'set-password', user: 'root', argument: hash },
      { timeoutMs: GUEST_CHANNEL_WAIT_MS, signal: ctx.signal },
    ).catch((error: Error) => {
      if (error instanceof GuestChannelSilent)
        throw new DriverFailure('GUEST_CHANNEL_SILENT', error.message, true);
      throw error;
    });
    if (!answer.ok) throw new DriverFailure('GUEST_REFUSED', `the guest said: ${answer.detail}`, false);
    dropPendingReset(instance.dir);
    return { changed: answer.detail === 'changed' };
  }

  #passwordHash(instance: QemuInstance, password: string): string {
    if (!instance.password_key) {
      instance.password_key = randomBytes(32).toString('hex');
      this.#save();
    }
    return sha512Crypt(password, passwordSalt(instance.password_key, password));
  }

  /**
   * The first password of a new disk, hashed, where the guest's first boot reads it (QEMU's
   * fw_cfg): the guest writes it into its /etc/shadow when the disk has none yet, so a later reset
   * is never undone by a reboot. A disk restored from a backup keeps the backup's.
   */
  #writeFirstPassword(instance: QemuInstance, password: string): void {
    writeFileSync(guestFiles(instance.dir).rootHash, this.#passwordHash(instance, password), { mode: 0o600 });
  }

  async #rebuild(p: AgentTaskParams<'instance.rebuild'>) {
    const instance = this.#existing(p.instance_id);
    if (instance.last_rebuild_id !== p.rebuild_id) {
      await stopGuest(instance.dir, this.config.AGENT_QEMU_STOP_TIMEOUT_MS);
      await copyDisk(this.#image.baseDisk, guestFiles(instance.dir).disk, instance.disk_mb);
      // The rebuild's password is newer than a reset still waiting for a boot.
      dropPendingReset(instance.dir);
      this.#writeFirstPassword(instance, p.root_password);
      Object.assign(instance, { image: p.image, hostname: p.hostname, last_rebuild_id: p.rebuild_id });
      this.#save();
      if (p.start) await this.#boot(p.instance_id, instance);
    }
    return { power_state: await this.#powerState(instance.dir) };
  }

  // --- Migration: the target's side ---------------------------------------------------------

  async #prepareTarget(p: AgentTaskParams<'migration.prepare_target'>) {
    if (!this.#state.incoming[p.migration_id]) {
      if (!this.#fits(p))
        throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the target lacks the capacity', false);
      const dir = join(this.config.AGENT_STATE_DIR, 'incoming', p.migration_id);
      mkdirSync(dir, { recursive: true });
      this.#state.incoming[p.migration_id] = {
        instance_id: p.instance_id,
        hostname: p.hostname,
        cpu_cores: p.cpu_cores,
        memory_mb: p.memory_mb,
        disk_mb: p.disk_mb,
        dir,
        endpoint: null,
        checksum: null,
        network_ready: false,
        defined: false,
        started: false,
      };
      this.#save();
    }
    return { prepared: true };
  }

  #receivePasswordHandoff(incoming: QemuIncoming, handoff: PasswordHandoff): void {
    const { rootHash } = guestFiles(incoming.dir);
    if (handoff.first_boot_hash) writeFileSync(rootHash, handoff.first_boot_hash, { mode: 0o600 });
    else rmSync(rootHash, { force: true });
    if (handoff.pending_reset) receivePendingReset(incoming.dir, handoff.pending_reset);
    else dropPendingReset(incoming.dir);
    incoming.password_key = handoff.password_key;
    incoming.password_received = true;
    this.#save();
  }

  async #transferDisk(p: AgentTaskParams<'disk.transfer'>, ctx: TaskContext) {
    const incoming = this.#incoming(p.migration_id);
    if (!incoming.checksum) {
      if (!incoming.endpoint) {
        // The token is good once: the endpoint is kept at once, so a repeated task needs no second redemption.
        incoming.endpoint = (await ctx.redeemTransfer(p.transfer_token)).endpoint;
        this.#save();
      }
      ctx.progress(10, 'pulling the disk from the source');
      incoming.checksum = await pullDisk(incoming.endpoint, guestFiles(incoming.dir).disk, ctx.signal);
      this.#save();
    }
    return { checksum: incoming.checksum, size_mb: incoming.disk_mb };
  }

  async #verifyDisk(p: AgentTaskParams<'disk.verify'>) {
    const incoming = this.#incoming(p.migration_id);
    const { disk } = guestFiles(incoming.dir);
    if (!incoming.checksum || !existsSync(disk))
      throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
    if (guestAlive(incoming.dir)) return { checksum: incoming.checksum };
    return { checksum: await sha256File(disk) };
  }

  async #defineTarget(p: AgentTaskParams<'migration.define_target'>, ctx: TaskContext) {
    const incoming = this.#incoming(p.migration_id);
    if (!incoming.checksum || !incoming.endpoint)
      throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
    if (!incoming.password_received) {
      // Taken now that the source is stopped (cold) or about to hand over (live): what it has is final.
      this.#receivePasswordHandoff(incoming, await pullPasswordHandoff(incoming.endpoint, ctx.signal));
    }
    if (p.final_sync) {
      // A cold move: the source is stopped now, its disk final; what changed since the first copy comes over.
      if (!incoming.defined) {
        ctx.progress(10, 'pulling the final disk from the source');
        incoming.checksum = await pullDisk(incoming.endpoint, guestFiles(incoming.dir).disk, ctx.signal);
      }
    } else {
      // A live move: the guest waits for its memory, its disk open for the source to mirror into.
      const status = await runStatus(incoming.dir);
      if (status === undefined) {
        const host = this.config.AGENT_QEMU_LISTEN_HOST;
        const listening = { host, migration_port: await freePort(host), nbd_port: await freePort(host) };
        await launchGuest(
          incoming.dir,
          this.#shape(p.instance_id, incoming),
          this.#image,
          this.acceleration.accelerator,
          {
            host,
            port: listening.migration_port,
          },
        ).catch((error: Error) => {
          throw new DriverFailure('GUEST_START_FAILED', error.message, true);
        });
        await Qmp.with(guestFiles(incoming.dir).qmp, async (qmp) => {
          await qmp.execute('nbd-server-start', {
            addr: { type: 'inet', data: { host, port: String(listening.nbd_port) } },
          });
          await qmp.execute('block-export-add', {
            type: 'nbd',
            id: 'root',
            'node-name': 'root',
            writable: true,
          });
        });
        incoming.listening = listening;
        this.#save();
        await announceIncoming(incoming.endpoint, listening);
      } else if (status === 'inmigrate' && incoming.listening) {
        // Repeated (the source did not hear it the first time): said again.
        await announceIncoming(incoming.endpoint, incoming.listening);
      } else if (status !== 'running') {
        throw new DriverFailure('TARGET_NOT_WAITING', `the target guest is ${status}`, true);
      }
    }
    incoming.defined = true;
    this.#save();
    return { defined: true };
  }

  async #startTarget(p: AgentTaskParams<'migration.start_target'>) {
    const incoming = this.#incoming(p.migration_id);
    if (!incoming.defined)
      throw new DriverFailure('TARGET_NOT_DEFINED', 'the target guest is not defined', false);
    const instance: QemuInstance = {
      dir: incoming.dir,
      hostname: incoming.hostname,
      cpu_cores: incoming.cpu_cores,
      memory_mb: incoming.memory_mb,
      disk_mb: incoming.disk_mb,
      image: 'guest',
      created_at: new Date().toISOString(),
      last_rebuild_id: null,
      ...(incoming.password_key ? { password_key: incoming.password_key } : {}),
    };
    const status = await runStatus(incoming.dir);
    if (status === 'inmigrate')
      throw new DriverFailure('MIGRATION_NOT_FINISHED', 'the guest’s memory has not all arrived', true);
    if (status !== undefined) {
      // Arrived live: the mirror's entrance is closed now that the source has let go.
      await Qmp.with(guestFiles(incoming.dir).qmp, (qmp) => qmp.execute('nbd-server-stop')).catch(
        () => undefined,
      );
    }
    if (!incoming.started) {
      this.#state.instances[p.instance_id] = instance;
      incoming.started = true;
      this.#save();
    }
    const arrived = this.#state.instances[p.instance_id]!;
    if (p.start && status === undefined) await this.#boot(p.instance_id, arrived);
    return { power_state: await this.#powerState(arrived.dir) };
  }

  async #discardTarget(p: AgentTaskParams<'migration.discard_target'>) {
    const incoming = this.#state.incoming[p.migration_id];
    if (!incoming) return { discarded: false };
    await killGuest(incoming.dir);
    rmSync(incoming.dir, { recursive: true, force: true });
    if (this.#state.instances[p.instance_id]?.dir === incoming.dir)
      delete this.#state.instances[p.instance_id];
    delete this.#state.incoming[p.migration_id];
    this.#save();
    return { discarded: true };
  }

  // --- Migration: the source's side ---------------------------------------------------------

  async #openChannel(): Promise<void> {
    const port = await this.#channel.open(this.#state.channel_port ?? undefined);
    if (port !== this.#state.channel_port) {
      this.#state.channel_port = port;
      this.#save();
    }
  }

  /**
   * What the guest's root password needs besides its disk, for the target (see
   * PasswordHandoffBody): a disk that never booted needs its first password's hash, a guest reset
   * while stopped its waiting reset. Served to the holder of the endpoint's secret only, like the disk.
   */
  #passwordHandoff(offered: QemuExport): PasswordHandoff | undefined {
    const instance = this.#state.instances[offered.instance_id];
    const dir = offered.dir ?? instance?.dir;
    if (!dir || !existsSync(dir)) return undefined;
    settlePendingReset(dir);
    const { rootHash } = guestFiles(dir);
    return {
      first_boot_hash: existsSync(rootHash) ? readFileSync(rootHash, 'utf8').trim() : null,
      pending_reset: pendingReset(dir) ?? null,
      password_key: (instance?.dir === dir ? instance.password_key : undefined) ?? null,
    };
  }

  async #exportDisk(p: AgentTaskParams<'disk.export'>) {
    const instance = this.#existing(p.instance_id);
    await this.#openChannel();
    let offered = this.#state.exports[p.migration_id];
    if (!offered) {
      const path = join(this.config.AGENT_STATE_DIR, 'exports', `${p.migration_id}.qcow2`);
      mkdirSync(join(this.config.AGENT_STATE_DIR, 'exports'), { recursive: true });
      const running = guestAlive(instance.dir);
      await copyDiskNow(instance.dir, path);
      offered = {
        instance_id: p.instance_id,
        secret: randomBytes(32).toString('hex'),
        path,
        checksum: await sha256File(path),
        of_running_guest: running,
        target: null,
        downtime_ms: null,
        dir: instance.dir,
      };
      this.#state.exports[p.migration_id] = offered;
      this.#save();
    }
    return {
      checksum: offered.checksum,
      size_mb: fileSizeMb(offered.path),
      endpoint: this.#channel.endpoint(p.migration_id, offered.secret),
    };
  }

  /** What the channel serves: the copy made at export, or a fresh one once the guest has stopped. */
  async #offerDisk(migrationId: string, secret: string) {
    const offered = this.#state.exports[migrationId];
    if (!offered || !secretMatches(offered.secret, secret)) return undefined;
    const instance = this.#state.instances[offered.instance_id];
    if (instance && offered.of_running_guest && !guestAlive(instance.dir)) {
      await copyDiskNow(instance.dir, offered.path);
      offered.checksum = await sha256File(offered.path);
      offered.of_running_guest = false;
      this.#save();
    }
    return { path: offered.path, checksum: offered.checksum };
  }

  async #migrateLive(p: AgentTaskParams<'migration.live'>, ctx: TaskContext) {
    const offered = this.#state.exports[p.migration_id];
    if (!offered)
      throw new DriverFailure('MIGRATION_NOT_EXPORTED', 'the disk was not offered for this migration', false);
    if (offered.downtime_ms !== null) return { downtime_ms: offered.downtime_ms };
    if (!offered.target)
      throw new DriverFailure('TARGET_NOT_WAITING', 'the target has not said where its guest waits', true);
    const instance = this.#existing(p.instance_id);
    if (!guestAlive(instance.dir))
      throw new DriverFailure('GUEST_NOT_RUNNING', 'the guest is not running: nothing to move live', false);
    const target = offered.target;
    const downtime = await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
      // The disk first: mirrored into the target's, writes copied synchronously once in step,
      // so the target's disk is the guest's at the moment its memory arrives.
      const jobs = await qmp.execute<{ id: string }[]>('query-jobs');
      if (!jobs.some((j) => j.id === 'migration-disk')) {
        await qmp
          .execute('blockdev-add', {
            driver: 'nbd',
            'node-name': 'migration-target',
            server: { type: 'inet', host: target.host, port: String(target.nbd_port) },
            export: 'root',
          })
          .catch(() => undefined);
        await qmp.execute('blockdev-mirror', {
          'job-id': 'migration-disk',
          device: 'root',
          target: 'migration-target',
          sync: 'full',
          'copy-mode': 'write-blocking',
        });
      }
      for (;;) {
        const blockJobs =
          await qmp.execute<{ device: string; ready: boolean; offset: number; len: number }[]>(
            'query-block-jobs',
          );
        const job = blockJobs.find((j) => j.device === 'migration-disk');
        if (!job)
          throw new DriverFailure('DISK_MIRROR_FAILED', 'the disk mirror ended before it was in step', true);
        if (job.ready) break;
        if (job.len > 0) ctx.progress(Math.floor((job.offset / job.len) * 40), 'mirroring the disk');
        await sleep(100);
      }
      await qmp.execute('migrate', { uri: `tcp:${target.host}:${target.migration_port}` });
      for (;;) {
        const info = await qmp.execute<{
          status: string;
          downtime?: number;
          'error-desc'?: string;
          ram?: { transferred: number; total: number };
        }>('query-migrate');
        if (info.status === 'completed') {
          await qmp.execute('block-job-cancel', { device: 'migration-disk' });
          await awaitBlockJobGone(qmp, 'migration-disk');
          return info.downtime ?? 0;
        }
        if (info.status === 'failed' || info.status === 'cancelled') {
          await qmp
            .execute('block-job-cancel', { device: 'migration-disk', force: true })
            .catch(() => undefined);
          throw new DriverFailure(
            'LIVE_MIGRATION_FAILED',
            info['error-desc'] ?? `migration ${info.status}`,
            true,
          );
        }
        if (info.ram && info.ram.total > 0)
          ctx.progress(40 + Math.floor((info.ram.transferred / info.ram.total) * 55), 'moving the memory');
        await sleep(100);
      }
    });
    offered.downtime_ms = Math.round(downtime);
    this.#save();
    // The guest runs on the target now; the paused copy here ends, its disk kept until cleanup.
    await killGuest(instance.dir);
    return { downtime_ms: offered.downtime_ms };
  }

  async #cleanupSource(p: AgentTaskParams<'migration.cleanup_source'>) {
    // Done once: a repeat finds no offer and touches nothing, not even a guest that has come back.
    const offered = this.#state.exports[p.migration_id];
    if (!offered) return { removed: false };
    const dir = offered.dir ?? this.#state.instances[p.instance_id]?.dir;
    rmSync(offered.path, { force: true });
    delete this.#state.exports[p.migration_id];
    if (!dir || !existsSync(dir)) {
      this.#save();
      return { removed: false };
    }
    await killGuest(dir);
    rmSync(dir, { recursive: true, force: true });
    if (this.#state.instances[p.instance_id]?.dir === dir) delete this.#state.instances[p.instance_id];
    this.#save();
    return { removed: true };
  }
}

async function awaitBlockJobGone(qmp: Qmp, device: string): Promise<void> {
  for (;;) {
    const jobs = await qmp.execute<{ device: string }[]>('query-block-jobs');
    if (!jobs.some((j) => j.device === device)) return;
    await sleep(50);
  }
}

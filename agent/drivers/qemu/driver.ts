import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TASKS, type AgentTaskParams, type AgentTaskType } from '../../../domain/agent-tasks.js';
import { reportedRoom } from '../../../domain/instances/hot-resize.js';
import { openRelay } from '../../console/relay.js';
import {
  type Capacity,
  DriverFailure,
  type GuestReport,
  type HypervisorDriver,
  type InstanceSample,
  type TaskContext,
} from '../driver.js';
import { artifactTask } from './artifacts/artifact-tasks.js';
import { ArtifactShelf } from './artifacts/artifacts.js';
import { deleteStoreImage, fetchStoreImage } from './artifacts/image-imports.js';
import { ImageStore } from './artifacts/image-store.js';
import { guestConsole } from './console/console.js';
import { resizeGuestDisk } from './disks/disk-resize.js';
import { attachVolume, createVolume, deleteVolume, detachVolume, resizeVolume } from './disks/volumes.js';
import { chooseAccelerator } from './guests/accelerator.js';
import { createGuest, rebuildGuest } from './guests/create.js';
import { guestAlive } from './guests/guest-process.js';
import { type QemuConfig, QemuGuests } from './guests/guests.js';
import { bootGuestIso, deleteGuestIso, fetchGuestIso, mountGuestIso } from './guests/media.js';
import { GuestMetrics } from './guests/metrics.js';
import { deleteGuest, powerGuest } from './guests/power.js';
import { changeGuestRescue } from './guests/rescue.js';
import { resizeGuest } from './guests/resize.js';
import type { QemuState } from './guests/state.js';
import { MigrationSource } from './migration/migration-source.js';
import { discardTarget, prepareTarget } from './migration/migration-target.js';
import { defineTarget } from './migration/target-definition.js';
import { transferDisk, verifyDisk } from './migration/target-disks.js';
import { prepareNetwork, releaseNetwork } from './migration/target-network.js';
import { startTarget } from './migration/target-start.js';
import { applyFirewall, applyNetwork } from './network/tasks.js';
import { setPassword } from './password/password.js';
import { settlePendingReset } from './password/pending-password.js';
import {
  abortCopy as abortStorageCopy,
  copyToBackend,
  verifyCopy as verifyStorageCopy,
} from './storage-moves/storage-copies.js';
import { cleanUpOldDisk, revertToBackend, switchToBackend } from './storage-moves/storage-switches.js';

type Params = Record<string, unknown>;
type Handler = (p: Params, ctx: TaskContext) => Promise<Record<string, unknown>>;

/**
 * A real hypervisor: one QEMU process per guest, controlled over QMP, its qcow2 disk copied from
 * its image's (artifacts/image-store.ts), told of itself by a cloud-init seed (guests/guest-seed.ts).
 * Everything it knows is in files under AGENT_STATE_DIR (its state file, and per guest its
 * directory with the pid file and QMP socket), so a restarted agent finds its guests running where
 * it left them. Every task is idempotent: it looks at what is there (the disk, the process) before
 * it changes anything. The tasks are in the rooms beside this file, one folder per concern
 * (docs/qemu.md); this class alone wires the rooms together, one task per guest at a time.
 */
export class QemuDriver implements HypervisorDriver {
  readonly #guests: QemuGuests;
  readonly #source: MigrationSource;
  readonly #metrics: GuestMetrics;
  /** The location's backup store: agents of a location share it (AGENT_QEMU_BACKUP_DIR). */
  readonly #backups: ArtifactShelf;
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #tasks: Partial<Record<AgentTaskType, Handler>>;

  private constructor(guests: QemuGuests) {
    const { config } = guests;
    this.#guests = guests;
    this.#source = new MigrationSource(guests);
    this.#metrics = new GuestMetrics(guests.state, guests.bridgedNetwork);
    this.#backups = new ArtifactShelf(
      config.AGENT_QEMU_BACKUP_DIR ?? join(config.AGENT_STATE_DIR, 'backups'),
      {
        code: 'BACKUP_NOT_FOUND',
        message: 'the backup is not in the store',
      },
    );
    const source = this.#source;
    const as = <T extends AgentTaskType>(p: Params) => p as AgentTaskParams<T>;
    this.#tasks = {
      'instance.create': (p) => createGuest(guests, this.#backups, as<'instance.create'>(p)),
      'instance.power': (p) => powerGuest(guests, as<'instance.power'>(p)),
      'instance.state': async (p) => {
        const { instance_id } = as<'instance.state'>(p);
        const power_state = await guests.powerState(guests.existing(instance_id).dir);
        return { power_state, ...((await source.movingOut(instance_id)) && { moving_out: true }) };
      },
      'instance.delete': (p) => deleteGuest(guests, as<'instance.delete'>(p)),
      'instance.rebuild': (p) => rebuildGuest(guests, as<'instance.rebuild'>(p)),
      'instance.resize': (p) => resizeGuest(guests, as<'instance.resize'>(p)),
      'instance.set_password': (p, ctx) => setPassword(guests, as<'instance.set_password'>(p), ctx),
      'hypervisor.probe': async () => ({ instances: Object.keys(guests.state.instances).length }),
      'migration.prepare_target': (p) => prepareTarget(guests, as<'migration.prepare_target'>(p)),
      'disk.export': (p) => source.exportDisk(as<'disk.export'>(p)),
      'disk.withdraw': async (p) => source.withdraw(as<'disk.withdraw'>(p)),
      'disk.transfer': (p, ctx) => transferDisk(guests, as<'disk.transfer'>(p), ctx),
      'disk.verify': (p) => verifyDisk(guests, as<'disk.verify'>(p)),
      'network.prepare': async (p) => prepareNetwork(guests, as<'network.prepare'>(p)),
      'network.release': async (p) => releaseNetwork(guests, as<'network.release'>(p)),
      'network.apply': (p, ctx) => applyNetwork(guests, as<'network.apply'>(p), ctx),
      'firewall.apply': (p) => applyFirewall(guests, as<'firewall.apply'>(p)),
      'disk.resize': (p) => resizeGuestDisk(guests, as<'disk.resize'>(p)),
      'volume.create': (p) => createVolume(guests, as<'volume.create'>(p)),
      'volume.attach': (p) => attachVolume(guests, as<'volume.attach'>(p)),
      'volume.detach': (p) => detachVolume(guests, as<'volume.detach'>(p)),
      'volume.resize': (p) => resizeVolume(guests, as<'volume.resize'>(p)),
      'volume.delete': async (p) => deleteVolume(guests, as<'volume.delete'>(p)),
      'iso.fetch': (p, ctx) => fetchGuestIso(guests, as<'iso.fetch'>(p), ctx.signal),
      'image.fetch': (p, ctx) => fetchStoreImage(guests.images, as<'image.fetch'>(p), ctx.signal),
      'image.delete': async (p) => deleteStoreImage(guests.images, guests.state, as<'image.delete'>(p)),
      'iso.mount': (p) => mountGuestIso(guests, as<'iso.mount'>(p)),
      'iso.boot': (p) => bootGuestIso(guests, as<'iso.boot'>(p)),
      'iso.delete': async (p) => deleteGuestIso(guests, as<'iso.delete'>(p)),
      'rescue.enter': (p) => changeGuestRescue(guests, as<'rescue.enter'>(p), true),
      'rescue.exit': (p) => changeGuestRescue(guests, as<'rescue.exit'>(p), false),
      'console.open': async (p, ctx) => {
        const open = as<'console.open'>(p);
        return openRelay(open, await guestConsole(guests, open.instance_id), ctx.signal);
      },
      'migration.define_target': (p, ctx) => defineTarget(guests, as<'migration.define_target'>(p), ctx),
      'migration.live': (p, ctx) => source.migrateLive(as<'migration.live'>(p), ctx),
      'migration.start_target': (p) => startTarget(guests, as<'migration.start_target'>(p)),
      'migration.verify_target': async (p) => ({
        power_state: await guests.powerState(guests.existing(String(p.instance_id)).dir),
      }),
      'migration.discard_target': (p) => discardTarget(guests, as<'migration.discard_target'>(p)),
      'migration.cleanup_source': (p) => source.cleanupSource(as<'migration.cleanup_source'>(p)),
      'storage.copy': (p, ctx) => copyToBackend(guests, as<'storage.copy'>(p), ctx),
      'storage.verify': (p) => verifyStorageCopy(guests, as<'storage.verify'>(p)),
      'storage.switch': (p) => switchToBackend(guests, as<'storage.switch'>(p)),
      'storage.abort': (p) => abortStorageCopy(guests, as<'storage.abort'>(p)),
      'storage.revert': (p) => revertToBackend(guests, as<'storage.revert'>(p)),
      'storage.cleanup': (p) => cleanUpOldDisk(guests, as<'storage.cleanup'>(p)),
    };
  }

  /** The driver, once its image store has an image and the accelerator is chosen. */
  static async start(config: QemuConfig): Promise<QemuDriver> {
    const images = new ImageStore(config.AGENT_QEMU_IMAGE_STORE);
    const kernel = images.anyKernel();
    if (!kernel)
      throw new Error(
        `no image in ${config.AGENT_QEMU_IMAGE_STORE} that boots by its kernel: build one with scripts/images/busybox.sh`,
      );
    // Any Linux kernel tells whether KVM runs guests here.
    const acceleration = await chooseAccelerator(config.AGENT_QEMU_ACCEL, kernel);
    const driver = new QemuDriver(new QemuGuests(config, images, acceleration));
    const { state, bridgedNetwork } = driver.#guests;
    // A bridged host needs its namespace before its first guest, and says so at once if it cannot have one.
    await bridgedNetwork?.host.ensure();
    // Guests that booted while their agent was away may have applied a waiting reset meanwhile.
    for (const [id, instance] of Object.entries(state.instances))
      if (!settlePendingReset(instance.dir) && guestAlive(instance.dir))
        driver.#guests.resetWatches.watch(id, instance.dir);
    // Endpoints handed out before a restart name this port: the listener comes back on it.
    if (Object.keys(state.exports).length > 0) await driver.#source.openChannel();
    return driver;
  }

  /** What the guests run under, and why (AGENT_QEMU_ACCEL, the probe). */
  get acceleration() {
    return this.#guests.acceleration;
  }

  /** The driver's state as it stands (for tests and operators). */
  snapshot(): QemuState {
    return structuredClone(this.#guests.state);
  }

  /** The directory of an instance's guest: its disk, console log, QMP socket. */
  guestDir(instanceId: string): string | undefined {
    return this.#guests.state.instances[instanceId]?.dir;
  }

  close(): void {
    this.#source.close();
    this.#guests.close();
  }

  async execute(type: AgentTaskType, rawParams: unknown, ctx: TaskContext): Promise<Record<string, unknown>> {
    const parsed = AGENT_TASKS[type].params.safeParse(rawParams);
    if (!parsed.success) throw new DriverFailure('INVALID_PARAMS', parsed.error.message, false);
    const p = parsed.data as Params;
    // Tasks on one guest run one at a time; guests do not wait for each other. A download (an ISO
    // fetched for the guest, an image for the store) touches no guest, and holds none of its tasks
    // up meanwhile; an image's removal waits for a fetch of it under way.
    const key =
      type === 'iso.fetch'
        ? `iso:${String(p.iso_id)}`
        : type === 'image.fetch' || type === 'image.delete'
          ? `image:${String(p.image)}`
          : String(p.instance_id ?? type);
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
    return this.#guests.freeCapacity();
  }

  /** Each guest of the state file whose directory is there, running if its QEMU process says it runs. */
  async guests(): Promise<GuestReport[]> {
    const held = Object.entries(this.#guests.state.instances).filter(([, i]) => existsSync(i.dir));
    return Promise.all(
      held.map(async ([id, i]) => {
        const power_state = await this.#guests.powerState(i.dir);
        return {
          instance_uuid: id,
          power_state,
          ...reportedRoom(i, power_state),
        };
      }),
    );
  }

  sample(now: Date): InstanceSample[] {
    return this.#metrics.sample(now);
  }

  #run(type: AgentTaskType, p: Params, ctx: TaskContext): Promise<Record<string, unknown>> {
    const artifactWork = artifactTask(this.#guests, this.#backups, type, p);
    if (artifactWork) return artifactWork;
    const handler = this.#tasks[type];
    if (!handler) throw new DriverFailure('NOT_SUPPORTED', `the QEMU driver does not run ${type} yet`, false);
    return handler(p, ctx);
  }
}

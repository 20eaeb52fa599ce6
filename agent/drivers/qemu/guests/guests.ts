import { fitsIn, type Resources } from '../../../../domain/capacity.js';
import type { AgentConfig } from '../../../config.js';
import { StateFile } from '../../../state-file.js';
import { type Capacity, DriverFailure } from '../../driver.js';
import { hostFreeCapacity, instancesRoom } from '../../host-capacity.js';
import type { ImageStore } from '../artifacts/image-store.js';
import { type SlottedVolume, slottedVolumesOf } from '../disks/volume-slots.js';
import { BridgedNetwork } from '../network/bridged-network.js';
import { guestMac } from '../network/guest-network.js';
import { PendingResetWatches } from '../password/pending-password.js';
import type { AcceleratorChoice } from './accelerator.js';
import { bootRoom, type GuestShape, launchGuest } from './guest-launch.js';
import { guestAlive, guestFiles, killGuest, runStatus } from './guest-process.js';
import { bootSize } from './room-to-grow.js';
import {
  type GuestGrowth,
  type GuestWiring,
  type QemuIncoming,
  type QemuInstance,
  type QemuState,
  qemuStatePath,
} from './state.js';

export type QemuConfig = Pick<
  AgentConfig,
  | 'AGENT_STATE_DIR'
  | 'AGENT_CAPACITY'
  | 'AGENT_QEMU_IMAGE_STORE'
  | 'AGENT_QEMU_LISTEN_HOST'
  | 'AGENT_QEMU_ACCEL'
  | 'AGENT_QEMU_STOP_TIMEOUT_MS'
> &
  Partial<
    Pick<
      AgentConfig,
      | 'AGENT_QEMU_BACKUP_DIR'
      | 'AGENT_QEMU_NETWORK'
      | 'AGENT_QEMU_NETNS'
      | 'AGENT_QEMU_SSH_FORWARD'
      | 'AGENT_QEMU_BACKEND_DIRS'
    >
  >;

/**
 * What this host's QEMU driver knows of its guests, shared by its task groups (power, create,
 * artifacts, password, migration): the state file, the image store, the accelerator, and how a
 * guest is found, sized and booted.
 */
export class QemuGuests {
  readonly #file: StateFile<QemuState>;
  readonly state: QemuState;
  /** Guests just booted with a waiting password reset, looked at until they say they applied it. */
  readonly resetWatches = new PendingResetWatches();
  /** The bridged network; none with the user-mode network or none. */
  readonly bridgedNetwork: BridgedNetwork | undefined;

  constructor(
    readonly config: QemuConfig,
    readonly images: ImageStore,
    readonly acceleration: AcceleratorChoice,
  ) {
    this.#file = new StateFile(qemuStatePath(config.AGENT_STATE_DIR), () => ({
      instances: {},
      incoming: {},
      exports: {},
      channel_port: null,
    }));
    this.state = this.#file.read();
    this.bridgedNetwork =
      config.AGENT_QEMU_NETWORK === 'bridged'
        ? new BridgedNetwork(config.AGENT_QEMU_NETNS ?? 'cloudsvc', config.AGENT_STATE_DIR)
        : undefined;
  }

  /** The bridged network, or a failure saying the host has none to apply a change to. */
  bridged(what: string): BridgedNetwork {
    if (!this.bridgedNetwork)
      throw new DriverFailure(
        'NOT_SUPPORTED',
        `the QEMU driver applies ${what} only with AGENT_QEMU_NETWORK=bridged (this host: ${this.config.AGENT_QEMU_NETWORK ?? 'user'})`,
        false,
      );
    return this.bridgedNetwork;
  }

  save(): void {
    this.#file.write(this.state);
  }

  existing(instanceId: string): QemuInstance {
    const instance = this.state.instances[instanceId];
    if (!instance)
      throw new DriverFailure('INSTANCE_NOT_FOUND', 'no such instance on this hypervisor', false);
    return instance;
  }

  incoming(migrationId: string): QemuIncoming {
    const incoming = this.state.incoming[migrationId];
    if (!incoming)
      throw new DriverFailure(
        'MIGRATION_NOT_PREPARED',
        'the target was not prepared for this migration',
        false,
      );
    return incoming;
  }

  /** The host's size less its instances, the guests arriving by migration and the volumes (agent/drivers/host-capacity.ts). */
  freeCapacity(preparing?: string): Capacity {
    return hostFreeCapacity(this.config.AGENT_CAPACITY, {
      instances: instancesRoom(this.state.instances, Object.values(this.state.incoming), preparing),
      incoming: Object.values(this.state.incoming),
      volumes: Object.values(this.state.volumes ?? {}),
    });
  }

  fits(need: Resources, preparing?: string): boolean {
    return fitsIn(this.freeCapacity(preparing), need);
  }

  async powerState(dir: string): Promise<'running' | 'stopped'> {
    const status = await runStatus(dir);
    return status === undefined || status === 'postmigrate' || status === 'shutdown' ? 'stopped' : 'running';
  }

  /** How the guest runs here: its size, its image's kernel, its NIC. Fails when the image is gone. */
  shape(
    instanceId: string,
    i: Pick<QemuInstance, 'cpu_cores' | 'memory_mb' | 'image' | 'addresses' | 'plugged'> &
      Partial<Pick<QemuInstance, 'dir' | 'mounted_iso' | 'boot_from_cdrom' | 'rescue'>> &
      GuestGrowth & {
        /** Its volumes, where this host does not keep them yet (a guest arriving live). */
        volumes?: SlottedVolume[];
      },
  ): GuestShape {
    return {
      name: instanceId,
      ...bootSize(i),
      ...(i.ceiling && { ceiling: i.ceiling }),
      ...(i.hot_added && { hotAdded: i.hot_added }),
      image: this.images.get(i.image),
      mac: guestMac(instanceId),
      network: this.config.AGENT_QEMU_NETWORK ?? 'user',
      addresses: i.addresses,
      sshForward: this.config.AGENT_QEMU_SSH_FORWARD ?? false,
      volumes: i.volumes ?? slottedVolumesOf(this.state, this.config.AGENT_STATE_DIR, instanceId),
      ...(i.dir && i.mounted_iso ? { cdrom: guestFiles(i.dir).iso(i.mounted_iso) } : {}),
      boot: i.rescue ? 'rescue' : i.boot_from_cdrom ? 'cdrom' : 'disk',
      ...this.bridgedNetwork?.taps(instanceId, i.plugged),
    };
  }

  async boot(instanceId: string, instance: QemuInstance): Promise<void> {
    if (guestAlive(instance.dir)) return;
    // What was added while it ran went with its process: it boots at its whole size.
    if (instance.hot_added) {
      delete instance.hot_added;
      this.save();
    }
    await this.launch(instanceId, instance.dir, instance);
    // A boot from the drive is once: the next is from the disk again.
    if (instance.boot_from_cdrom) {
      instance.boot_from_cdrom = false;
      this.save();
    }
    this.resetWatches.watch(instanceId, instance.dir);
  }

  /**
   * Starts the guest's QEMU (waiting for a live migration's memory with `incoming`, launchGuest)
   * and, on the bridged network, wires its tap; a guest that cannot be wired is ended rather than
   * left running unreachable or unfiltered.
   */
  async launch(
    instanceId: string,
    dir: string,
    guest: Pick<QemuInstance, 'cpu_cores' | 'memory_mb' | 'image' | 'addresses'> &
      Partial<Pick<QemuInstance, 'dir' | 'mounted_iso' | 'boot_from_cdrom' | 'rescue'>> &
      GuestWiring &
      GuestGrowth & { volumes?: SlottedVolume[] },
    incoming = false,
  ): Promise<void> {
    // A migration's target starts with exactly the room the source's process has, however it booted.
    const carried = incoming && guest.booted_ceiling !== undefined;
    const shape = this.shape(
      instanceId,
      carried ? { ...guest, ceiling: guest.booted_ceiling ?? undefined, booted_ceiling: undefined } : guest,
    );
    try {
      await launchGuest(dir, shape, this.acceleration.accelerator, incoming);
      guest.booted_ceiling = bootRoom(shape) ?? null;
      this.save();
      await this.bridgedNetwork?.wire(instanceId, guest).catch(async (error: Error) => {
        await killGuest(dir);
        throw error;
      });
    } catch (error) {
      throw new DriverFailure('GUEST_START_FAILED', (error as Error).message, true);
    }
  }

  close(): void {
    this.resetWatches.close();
  }
}

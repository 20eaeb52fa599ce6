import { fitsIn, freeCapacity, type Resources } from '../../../domain/capacity.js';
import type { AgentConfig } from '../../config.js';
import { StateFile } from '../../state-file.js';
import { type Capacity, DriverFailure } from '../driver.js';
import type { AcceleratorChoice } from './accelerator.js';
import { type GuestShape, guestAlive, killGuest, launchGuest, runStatus } from './guest-process.js';
import type { ImageStore } from './image-store.js';
import { guestMac } from './network/guest-network.js';
import { unwireGuest, wireGuest } from './network/guest-wiring.js';
import { HostNetwork, tapName } from './network/host-network.js';
import { pendingReset, settlePendingReset } from './pending-password.js';
import {
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
      'AGENT_QEMU_BACKUP_DIR' | 'AGENT_QEMU_NETWORK' | 'AGENT_QEMU_NETNS' | 'AGENT_QEMU_SSH_FORWARD'
    >
  >;

/**
 * How long after a boot the agent looks on the console for the guest's word that it applied a
 * reset made while it was stopped; one booting slower is settled by its next task or boot.
 */
const RESET_ACK_WAIT_MS = 180_000;

/**
 * What this host's QEMU driver knows of its guests, shared by its task groups (power, create,
 * artifacts, password, migration): the state file, the image store, the accelerator, and how a
 * guest is found, sized and booted.
 */
export class QemuGuests {
  readonly #file: StateFile<QemuState>;
  readonly state: QemuState;
  /** Guests just booted with a waiting password reset, looked at until they say they applied it. */
  readonly #resetWatches = new Map<string, NodeJS.Timeout>();
  /** The host side of the bridged network; none with the user-mode network or none. */
  readonly hostNetwork: HostNetwork | undefined;

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
    this.hostNetwork =
      config.AGENT_QEMU_NETWORK === 'bridged'
        ? new HostNetwork(config.AGENT_QEMU_NETNS ?? 'cloudsvc')
        : undefined;
  }

  /** The tap of a guest's NIC on this host (network/host-network.ts). */
  tap(instanceId: string, nic = 0): string {
    return tapName(this.config.AGENT_STATE_DIR, instanceId, nic);
  }

  /** The bridged network, or a failure saying the host has none to apply a change to. */
  bridged(what: string): HostNetwork {
    if (!this.hostNetwork)
      throw new DriverFailure(
        'NOT_SUPPORTED',
        `the QEMU driver applies ${what} only with AGENT_QEMU_NETWORK=bridged (this host: ${this.config.AGENT_QEMU_NETWORK ?? 'user'})`,
        false,
      );
    return this.hostNetwork;
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

  /** The host's size less its instances and the guests arriving by migration (domain/capacity.ts). */
  freeCapacity(): Capacity {
    const arriving = Object.values(this.state.incoming).filter((i) => !i.started);
    return freeCapacity(this.config.AGENT_CAPACITY, [...Object.values(this.state.instances), ...arriving]);
  }

  fits(need: Resources): boolean {
    return fitsIn(this.freeCapacity(), need);
  }

  async powerState(dir: string): Promise<'running' | 'stopped'> {
    const status = await runStatus(dir);
    return status === undefined || status === 'postmigrate' || status === 'shutdown' ? 'stopped' : 'running';
  }

  /** How the guest runs here: its size, its image's kernel, its NIC. Fails when the image is gone. */
  shape(
    instanceId: string,
    i: Pick<QemuInstance, 'cpu_cores' | 'memory_mb' | 'image' | 'addresses'>,
  ): GuestShape {
    return {
      name: instanceId,
      cpu_cores: i.cpu_cores,
      memory_mb: i.memory_mb,
      image: this.images.get(i.image),
      mac: guestMac(instanceId),
      network: this.config.AGENT_QEMU_NETWORK ?? 'user',
      addresses: i.addresses,
      sshForward: this.config.AGENT_QEMU_SSH_FORWARD ?? false,
      ...(this.hostNetwork ? { tap: this.tap(instanceId) } : {}),
    };
  }

  async boot(instanceId: string, instance: QemuInstance): Promise<void> {
    if (guestAlive(instance.dir)) return;
    await this.launch(instanceId, instance.dir, instance);
    this.watchPendingReset(instanceId, instance);
  }

  /**
   * Starts the guest's QEMU (waiting for a live migration's memory with `incoming`) and, on the
   * bridged network, wires its tap; a guest that cannot be wired is ended rather than left
   * running unreachable or unfiltered.
   */
  async launch(
    instanceId: string,
    dir: string,
    guest: Pick<QemuInstance, 'cpu_cores' | 'memory_mb' | 'image' | 'addresses'> & GuestWiring,
    incoming?: { host: string; port: number },
  ): Promise<void> {
    const shape = this.shape(instanceId, guest);
    try {
      await launchGuest(dir, shape, this.acceleration.accelerator, incoming);
      if (this.hostNetwork && shape.tap)
        await wireGuest(this.hostNetwork, shape.tap, guest.addresses, guest).catch(async (error: Error) => {
          await killGuest(dir);
          throw error;
        });
    } catch (error) {
      throw new DriverFailure('GUEST_START_FAILED', (error as Error).message, true);
    }
  }

  /** Drops what the bridged network holds for a guest gone from this host. */
  async unwire(instanceId: string): Promise<void> {
    if (this.hostNetwork) await unwireGuest(this.hostNetwork, this.tap(instanceId));
  }

  /**
   * Drops a waiting password reset once the booted guest has said it applied it. Its id stays on
   * the guest's disk, so until then a reboot with the same fw_cfg file changes nothing.
   */
  watchPendingReset(instanceId: string, instance: QemuInstance): void {
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

  close(): void {
    for (const timer of this.#resetWatches.values()) clearTimeout(timer);
    this.#resetWatches.clear();
  }
}

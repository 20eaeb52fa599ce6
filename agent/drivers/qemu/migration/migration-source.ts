import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { transportKeyOf } from '../../transport-key.js';
import { removeBackendDisks } from '../disks/backend-disks.js';
import { copyDiskNow } from '../disks/disk-copies.js';
import { fileSizeMb, sha256File } from '../disks/disk-files.js';
import { guestAlive, guestFiles, killGuest } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import { moveLive } from './live-migration.js';
import { exportVolume, mirroredDisks, offerVolume, removeMovedVolumes } from './migration-volumes.js';
import { passwordHandoff } from './password-handoff.js';
import { arrivalUnderWay } from './retained-copies.js';
import { setupHandoff } from './setup-handoff.js';
import { MOVING_STATUSES } from './timeouts.js';
import { TransferChannel } from './transfer-channel.js';
import { addQemuCredentials, moveKey, removeQemuCredentials } from './transport.js';

/**
 * A migration on its source: the disk offered to the target through the agent's transfer channel
 * (to the holder of the move's transport key only), the guest moved live, and the old copy removed
 * at cleanup, once.
 */
export class MigrationSource {
  readonly #channel: TransferChannel;
  /** The instances whose live move out of here this agent is running now. */
  readonly #moving = new Set<string>();

  constructor(private readonly guests: QemuGuests) {
    const { state } = guests;
    // The channel lets a client in only with an offered move's key; each handler finds the offer
    // again, as it may have been withdrawn while the connection was open.
    this.#channel = new TransferChannel(guests.config.AGENT_QEMU_LISTEN_HOST, {
      keyOf: (migrationId) => state.exports[migrationId]?.transport_secret,
      disk: (migrationId) => this.#offerDisk(migrationId),
      volume: async (migrationId, volumeId) => {
        const offered = state.exports[migrationId];
        return offered && offerVolume(guests, offered, volumeId);
      },
      incoming: async (migrationId, ports) => {
        const offered = state.exports[migrationId];
        if (!offered) return false;
        offered.target = ports;
        guests.save();
        return true;
      },
      password: async (migrationId) => {
        const offered = state.exports[migrationId];
        return offered && passwordHandoff(guests, offered);
      },
      setup: async (migrationId) => {
        const offered = state.exports[migrationId];
        return offered && setupHandoff(guests, offered);
      },
    });
  }

  /** The channel on its port: endpoints handed out before a restart name that port. */
  async openChannel(): Promise<void> {
    const { state } = this.guests;
    const port = await this.#channel.open(state.channel_port ?? undefined);
    if (port !== state.channel_port) {
      state.channel_port = port;
      this.guests.save();
    }
  }

  close(): void {
    this.#channel.close();
  }

  async exportDisk(p: AgentTaskParams<'disk.export'>) {
    const { guests } = this;
    const instance = guests.existing(p.instance_id);
    const key = transportKeyOf(p);
    await this.openChannel();
    const volumeId = volumeOfDisk(p.disk);
    if (volumeId) {
      // The volume is served beside the root disk, to the holder of the same key.
      const offer = await exportVolume(guests, p.migration_id, volumeId);
      return { ...offer, endpoint: this.#channel.endpoint(p.migration_id) };
    }
    let offered = guests.state.exports[p.migration_id];
    if (!offered) {
      const exports = join(guests.config.AGENT_STATE_DIR, 'exports');
      const path = join(exports, `${p.migration_id}.qcow2`);
      mkdirSync(exports, { recursive: true });
      const running = guestAlive(instance.dir);
      await copyDiskNow(instance.dir, path);
      offered = {
        instance_id: p.instance_id,
        transport_secret: key,
        path,
        checksum: await sha256File(path),
        of_running_guest: running,
        target: null,
        downtime_ms: null,
        dir: instance.dir,
      };
      guests.state.exports[p.migration_id] = offered;
      guests.save();
    } else if (offered.transport_secret !== key) {
      // An offer of a run begun before moves were keyed, offered again by a keyed task.
      offered.transport_secret = key;
      guests.save();
    }
    return {
      checksum: offered.checksum,
      size_mb: fileSizeMb(offered.path),
      endpoint: this.#channel.endpoint(p.migration_id),
    };
  }

  /** What the channel serves: the copy made at export, or a fresh one once the guest has stopped. */
  async #offerDisk(migrationId: string) {
    const { guests } = this;
    const offered = guests.state.exports[migrationId];
    if (!offered) return undefined;
    const instance = guests.state.instances[offered.instance_id];
    if (instance && offered.of_running_guest && !guestAlive(instance.dir)) {
      await copyDiskNow(instance.dir, offered.path);
      offered.checksum = await sha256File(offered.path);
      offered.of_running_guest = false;
      guests.save();
    }
    return { path: offered.path, checksum: offered.checksum };
  }

  async migrateLive(p: AgentTaskParams<'migration.live'>, ctx: TaskContext) {
    const { guests } = this;
    const offered = guests.state.exports[p.migration_id];
    if (!offered)
      throw new DriverFailure('MIGRATION_NOT_EXPORTED', 'the disk was not offered for this migration', false);
    if (offered.downtime_ms !== null)
      return { downtime_ms: offered.downtime_ms, ...(offered.applied && { applied: offered.applied }) };
    const target = offered.target;
    if (!target)
      throw new DriverFailure('TARGET_NOT_WAITING', 'the target has not said where its guest waits', true);
    const instance = guests.existing(p.instance_id);
    if (!guestAlive(instance.dir))
      throw new DriverFailure('GUEST_NOT_RUNNING', 'the guest is not running: nothing to move live', false);
    const move = moveKey(p.migration_id, offered.transport_secret);
    const disks = mirroredDisks(guests, p.instance_id);
    const stateDir = guests.config.AGENT_STATE_DIR;
    this.#moving.add(p.instance_id);
    const moved = await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
      const tls = await addQemuCredentials(qmp, stateDir, move, 'client');
      try {
        return await moveLive(qmp, target, ctx, tls, disks, p.convergence);
      } finally {
        await removeQemuCredentials(qmp, stateDir, p.migration_id);
      }
    }).finally(() => this.#moving.delete(p.instance_id));
    offered.downtime_ms = Math.round(moved.downtime_ms);
    offered.applied = moved.applied;
    // The memory is over: the channel serves this move to nobody from now on.
    delete offered.transport_secret;
    guests.save();
    // The guest runs on the target now; the paused copy here ends, its disk kept until cleanup.
    await killGuest(instance.dir);
    return { downtime_ms: offered.downtime_ms, applied: moved.applied };
  }

  /**
   * Whether a live move of the guest out of here is under way (`instance.state`'s `moving_out`): one
   * this agent runs, or one QEMU still runs without it (an agent restarted mid-move). A guest whose
   * QMP does not answer (held by the move) counts as moving: where it runs is not settled.
   */
  async movingOut(instanceId: string): Promise<boolean> {
    if (this.#moving.has(instanceId)) return true;
    const dir = this.guests.state.instances[instanceId]?.dir;
    if (!dir || !guestAlive(dir)) return false;
    try {
      const { status } = await Qmp.with(guestFiles(dir).qmp, (qmp) =>
        qmp.execute<{ status?: string }>('query-migrate'),
      );
      return MOVING_STATUSES.includes(status ?? 'none');
    } catch {
      return true;
    }
  }

  /** The copies offered for a migration that will not take them: removed, and served no more. */
  withdraw(p: AgentTaskParams<'disk.withdraw'>) {
    const { state } = this.guests;
    const offered = state.exports[p.migration_id];
    if (!offered) return { withdrawn: false };
    rmSync(offered.path, { force: true });
    for (const copy of Object.values(offered.volumes ?? {})) rmSync(copy.path, { force: true });
    delete state.exports[p.migration_id];
    this.guests.save();
    return { withdrawn: true };
  }

  async cleanupSource(p: AgentTaskParams<'migration.cleanup_source'>) {
    const { state } = this.guests;
    // Done once: a repeat finds no offer and touches nothing, not even a guest that has come back.
    const offered = state.exports[p.migration_id];
    if (!offered) return { removed: false };
    const dir = offered.dir ?? state.instances[p.instance_id]?.dir;
    rmSync(offered.path, { force: true });
    removeMovedVolumes(this.guests, offered);
    delete state.exports[p.migration_id];
    if (!dir || !existsSync(dir)) {
      this.guests.save();
      return { removed: false };
    }
    await killGuest(dir);
    // The copy's own entry: kept with the offer if the instance came back here since.
    const moved = offered.instance ?? state.instances[p.instance_id];
    if (moved?.dir === dir) removeBackendDisks(moved);
    rmSync(dir, { recursive: true, force: true });
    if (state.instances[p.instance_id]?.dir === dir) {
      delete state.instances[p.instance_id];
      // The taps are named per instance: an arrival under way here is wired on them already.
      if (!arrivalUnderWay(this.guests, p.instance_id))
        await this.guests.bridgedNetwork?.unwire(p.instance_id);
    }
    this.guests.save();
    return { removed: true };
  }
}

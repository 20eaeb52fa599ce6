import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { removeBackendDisks } from '../disks/backend-disks.js';
import { copyDiskNow } from '../disks/disk-copies.js';
import { fileSizeMb, sha256File } from '../disks/disk-files.js';
import { guestAlive, guestFiles, killGuest } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import { moveLive } from './live-migration.js';
import { exportVolume, mirroredDisks, offerVolume, removeMovedVolumes } from './migration-volumes.js';
import { passwordHandoff } from './password-handoff.js';
import { setupHandoff } from './setup-handoff.js';
import { secretMatches, TransferChannel } from './transfer-channel.js';

/**
 * A migration on its source: the disk offered to the target through the agent's transfer channel
 * (to the holder of the endpoint's secret only), the guest moved live, and the old copy removed
 * at cleanup, once.
 */
export class MigrationSource {
  readonly #channel: TransferChannel;

  constructor(private readonly guests: QemuGuests) {
    const { state } = guests;
    this.#channel = new TransferChannel(guests.config.AGENT_QEMU_LISTEN_HOST, {
      disk: (migrationId, secret) => this.#offerDisk(migrationId, secret),
      volume: async (migrationId, secret, volumeId) => {
        const offered = state.exports[migrationId];
        if (!offered || !secretMatches(offered.secret, secret)) return undefined;
        return offerVolume(guests, offered, volumeId);
      },
      incoming: async (migrationId, secret, ports) => {
        const offered = state.exports[migrationId];
        if (!offered || !secretMatches(offered.secret, secret)) return false;
        offered.target = ports;
        guests.save();
        return true;
      },
      password: async (migrationId, secret) => {
        const offered = state.exports[migrationId];
        if (!offered || !secretMatches(offered.secret, secret)) return undefined;
        return passwordHandoff(guests, offered);
      },
      setup: async (migrationId, secret) => {
        const offered = state.exports[migrationId];
        if (!offered || !secretMatches(offered.secret, secret)) return undefined;
        return setupHandoff(guests, offered);
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
    await this.openChannel();
    const volumeId = volumeOfDisk(p.disk);
    if (volumeId) {
      const offer = await exportVolume(guests, p.migration_id, volumeId);
      // The volume is served beside the root disk, to the holder of the same secret.
      const { secret } = guests.state.exports[p.migration_id]!;
      return { ...offer, endpoint: this.#channel.endpoint(p.migration_id, secret) };
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
        secret: randomBytes(32).toString('hex'),
        path,
        checksum: await sha256File(path),
        of_running_guest: running,
        target: null,
        downtime_ms: null,
        dir: instance.dir,
      };
      guests.state.exports[p.migration_id] = offered;
      guests.save();
    }
    return {
      checksum: offered.checksum,
      size_mb: fileSizeMb(offered.path),
      endpoint: this.#channel.endpoint(p.migration_id, offered.secret),
    };
  }

  /** What the channel serves: the copy made at export, or a fresh one once the guest has stopped. */
  async #offerDisk(migrationId: string, secret: string) {
    const { guests } = this;
    const offered = guests.state.exports[migrationId];
    if (!offered || !secretMatches(offered.secret, secret)) return undefined;
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
    if (offered.downtime_ms !== null) return { downtime_ms: offered.downtime_ms };
    const target = offered.target;
    if (!target)
      throw new DriverFailure('TARGET_NOT_WAITING', 'the target has not said where its guest waits', true);
    const instance = guests.existing(p.instance_id);
    if (!guestAlive(instance.dir))
      throw new DriverFailure('GUEST_NOT_RUNNING', 'the guest is not running: nothing to move live', false);
    const disks = mirroredDisks(guests, p.instance_id);
    const downtime = await Qmp.with(guestFiles(instance.dir).qmp, (qmp) => moveLive(qmp, target, ctx, disks));
    offered.downtime_ms = Math.round(downtime);
    guests.save();
    // The guest runs on the target now; the paused copy here ends, its disk kept until cleanup.
    await killGuest(instance.dir);
    return { downtime_ms: offered.downtime_ms };
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
    const moved = state.instances[p.instance_id];
    if (moved?.dir === dir) removeBackendDisks(moved);
    rmSync(dir, { recursive: true, force: true });
    if (state.instances[p.instance_id]?.dir === dir) {
      delete state.instances[p.instance_id];
      await this.guests.bridgedNetwork?.unwire(p.instance_id);
    }
    this.guests.save();
    return { removed: true };
  }
}

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { DriverFailure } from '../../driver.js';
import { copyDiskNow } from '../disks/disk-copies.js';
import { fileSizeMb, sha256File } from '../disks/disk-files.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';

/** What a backup or snapshot is: its size and the checksum computed when it was written. */
export interface ArtifactFacts {
  size_mb: number;
  checksum: string;
}

/** A restore under way: the restored disk beside the current one, then the old one kept aside. */
interface RestoreRecord {
  was_running: boolean;
  swapped: boolean;
  checksum: string | null;
}

const writeJson = (path: string, value: unknown) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
};
const readJson = <T>(path: string): T | undefined =>
  existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;

/**
 * A copy of a disk kept as a file with its facts beside it (`<id>.qcow2`, `<id>.json`): backups in
 * the location's store, snapshots in the guest's directory, so that they travel with it.
 */
export class ArtifactShelf {
  constructor(
    private readonly dir: string,
    private readonly missing: { code: string; message: string },
  ) {}

  path = (id: string) => join(this.dir, `${id}.qcow2`);
  #facts = (id: string) => join(this.dir, `${id}.json`);

  /** Takes a consistent copy of the guest's disk under `id`, once: a repeat reports the same copy. */
  async take(guestDir: string, id: string): Promise<ArtifactFacts> {
    const recorded = readJson<ArtifactFacts>(this.#facts(id));
    if (recorded && existsSync(this.path(id))) return recorded;
    mkdirSync(this.dir, { recursive: true });
    await copyDiskNow(guestDir, this.path(id));
    const facts = { size_mb: fileSizeMb(this.path(id)), checksum: await sha256File(this.path(id)) };
    writeJson(this.#facts(id), facts);
    return facts;
  }

  /** What is really there now: the checksum read back, not the recorded one. */
  async read(id: string): Promise<ArtifactFacts> {
    if (!existsSync(this.path(id))) throw new DriverFailure(this.missing.code, this.missing.message, false);
    return { size_mb: fileSizeMb(this.path(id)), checksum: await sha256File(this.path(id)) };
  }

  has = (id: string) => existsSync(this.path(id));

  remove(id: string): boolean {
    const existed = existsSync(this.path(id)) || existsSync(this.#facts(id));
    rmSync(this.path(id), { force: true });
    rmSync(this.#facts(id), { force: true });
    return existed;
  }
}

/** The restores of one guest: a restored disk staged beside its disk, swapped in, reverted or released. */
export class GuestRestores {
  constructor(private readonly guestDir: string) {}

  #staged = (id: string) => join(this.guestDir, 'restores', `${id}.qcow2`);
  #previous = (id: string) => join(this.guestDir, 'restores', `${id}.previous.qcow2`);
  #record = (id: string) => join(this.guestDir, 'restores', `${id}.json`);

  /** Writes `source` beside the disk under the restore's id, once. */
  async stage(id: string, source: string | undefined, missing: { code: string; message: string }) {
    const staged = this.#staged(id);
    const record = readJson<RestoreRecord>(this.#record(id));
    if (!existsSync(staged) && !record?.swapped) {
      if (!source || !existsSync(source)) throw new DriverFailure(missing.code, missing.message, false);
      mkdirSync(dirname(staged), { recursive: true });
      copyFileSync(source, `${staged}.partial`);
      renameSync(`${staged}.partial`, staged);
    }
    const path = existsSync(staged) ? staged : guestFiles(this.guestDir).disk;
    return { size_mb: fileSizeMb(path), checksum: record?.checksum ?? (await sha256File(path)) };
  }

  /**
   * The staged disk takes the current one's place, which is kept aside. The guest is stopped for
   * it and started again if it ran; every step is found done or redone when the task is repeated.
   */
  async swap(
    id: string,
    stop: () => Promise<void>,
    boot: () => Promise<void>,
  ): Promise<{ checksum: string; was_running: boolean }> {
    const disk = guestFiles(this.guestDir).disk;
    let record = readJson<RestoreRecord>(this.#record(id));
    if (!record) {
      if (!existsSync(this.#staged(id)))
        throw new DriverFailure('RESTORE_NOT_STAGED', 'no restored disk was written for this restore', false);
      record = { was_running: guestAlive(this.guestDir), swapped: false, checksum: null };
      writeJson(this.#record(id), record);
    }
    if (!record.swapped) {
      await stop();
      if (existsSync(disk) && !existsSync(this.#previous(id))) renameSync(disk, this.#previous(id));
      if (existsSync(this.#staged(id))) renameSync(this.#staged(id), disk);
      record.checksum = await sha256File(disk);
      record.swapped = true;
      writeJson(this.#record(id), record);
    }
    if (record.was_running) await boot();
    return { checksum: record.checksum!, was_running: record.was_running };
  }

  /** Puts the disk kept aside back if it was swapped out; drops the restored one. */
  async revert(id: string, stop: () => Promise<void>, boot: () => Promise<void>): Promise<boolean> {
    const record = readJson<RestoreRecord>(this.#record(id));
    const staged = existsSync(this.#staged(id));
    if (!record && !staged) return false;
    let reverted = false;
    if (record?.swapped && existsSync(this.#previous(id))) {
      await stop();
      renameSync(this.#previous(id), guestFiles(this.guestDir).disk);
      reverted = true;
      if (record.was_running) await boot();
    }
    rmSync(this.#staged(id), { force: true });
    rmSync(this.#record(id), { force: true });
    return reverted;
  }

  /** Ends a restore that succeeded: the disk kept aside is dropped. */
  release(id: string): boolean {
    const existed = existsSync(this.#record(id)) || existsSync(this.#staged(id));
    for (const path of [this.#previous(id), this.#staged(id), this.#record(id)])
      rmSync(path, { force: true });
    return existed;
  }
}

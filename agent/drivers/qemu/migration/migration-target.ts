import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { arrivalRoom } from '../../host-capacity.js';
import { transportKeyOf } from '../../transport-key.js';
import { sha256File } from '../disks/disk-files.js';
import { volumeNode } from '../disks/volume-slots.js';
import { freePort, guestAlive, guestFiles, killGuest, runStatus } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import type { QemuIncoming, QemuInstance } from '../guests/state.js';
import { readyPostCopy } from './convergence.js';
import { expectedVolumes } from './incoming-volumes.js';
import {
  arrivingVolumes,
  discardVolumes,
  landVolumes,
  pullFinalVolumes,
  transferVolume,
  verifyVolume,
} from './migration-volumes.js';
import { receivePasswordHandoff } from './password-handoff.js';
import { keepRetainedApart, keepRetainedEntry, restoreRetained } from './retained-copies.js';
import { receiveSetupHandoff } from './setup-handoff.js';
import { announceIncoming, pullDisk, pullPasswordHandoff, type Source, sourceAt } from './transfer-pulls.js';
import { addQemuCredentials, removeQemuCredentials } from './transport.js';

// A migration on its target: the arriving guest has a directory of its own under incoming/ until
// it starts and becomes an instance here.

export async function prepareTarget(guests: QemuGuests, p: AgentTaskParams<'migration.prepare_target'>) {
  if (!guests.state.incoming[p.migration_id]) {
    // A target without the guest's image could never boot it: refused before anything moves.
    if (p.image) guests.images.get(p.image);
    const volumes = expectedVolumes(p.volumes);
    if (!guests.fits(arrivalRoom({ ...p, volumes }), p.instance_id))
      throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the target lacks the capacity', false);
    const dir = join(guests.config.AGENT_STATE_DIR, 'incoming', p.migration_id);
    mkdirSync(dir, { recursive: true });
    guests.state.incoming[p.migration_id] = {
      instance_id: p.instance_id,
      ...(p.image ? { image: p.image } : {}),
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
      ...(p.volumes && { volumes }),
    };
    keepRetainedApart(guests, guests.state.incoming[p.migration_id]!);
    guests.save();
  }
  return { prepared: true };
}

export async function transferDisk(
  guests: QemuGuests,
  p: AgentTaskParams<'disk.transfer'>,
  ctx: TaskContext,
) {
  const incoming = guests.incoming(p.migration_id);
  // Kept for the rest of the move: the handoffs, the final sync and a live move's listeners.
  const key = transportKeyOf(p);
  if (incoming.transport_secret !== key) {
    incoming.transport_secret = key;
    guests.save();
  }
  const volumeId = volumeOfDisk(p.disk);
  if (volumeId) return transferVolume(guests, p.migration_id, incoming, volumeId, p.transfer_token, ctx);
  if (!incoming.checksum) {
    if (!incoming.endpoint) {
      // The token is good once: the endpoint is kept at once, so a repeated task needs no second redemption.
      incoming.endpoint = (await ctx.redeemTransfer(p.transfer_token)).endpoint;
      guests.save();
    }
    ctx.progress(10, 'pulling the disk from the source');
    const source = sourceAt(p.migration_id, incoming, incoming.endpoint);
    incoming.checksum = await pullDisk(source, guestFiles(incoming.dir).disk, ctx.signal);
    guests.save();
  }
  return { checksum: incoming.checksum, size_mb: incoming.disk_mb };
}

export async function verifyDisk(guests: QemuGuests, p: AgentTaskParams<'disk.verify'>) {
  const incoming = guests.incoming(p.migration_id);
  const volumeId = volumeOfDisk(p.disk);
  if (volumeId) return verifyVolume(guests, incoming, volumeId);
  const { disk } = guestFiles(incoming.dir);
  if (!incoming.checksum || !existsSync(disk))
    throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
  if (guestAlive(incoming.dir)) return { checksum: incoming.checksum };
  return { checksum: await sha256File(disk) };
}

/**
 * The guest's network where it lands: the NIC's MAC comes from the instance id (the same here as
 * on the source), and the guest keeps the addresses its seed gave it (setup-handoff.ts). The
 * whole network and the firewall the panel carries are kept with the arriving guest: on the
 * bridged network its taps are wired with them when it starts here (guests/guests.ts `launch`). Its
 * private NICs' slots are the source's, from the setup handoff: the devices must be the same.
 */
export function prepareNetwork(guests: QemuGuests, p: AgentTaskParams<'network.prepare'>) {
  const incoming = guests.incoming(p.migration_id);
  incoming.network_ready = true;
  if (p.network)
    incoming.network = { revision: p.network.revision, addresses: p.network.addresses, nics: p.network.nics };
  if (p.firewall)
    incoming.firewall = {
      revision: p.firewall.revision,
      enabled: p.firewall.enabled,
      rules: p.firewall.rules,
    };
  guests.save();
  return { prepared: true };
}

export function releaseNetwork(guests: QemuGuests, p: AgentTaskParams<'network.release'>) {
  const incoming = guests.state.incoming[p.migration_id];
  if (incoming) incoming.network_ready = false;
  guests.save();
  return { released: true };
}

export async function defineTarget(
  guests: QemuGuests,
  p: AgentTaskParams<'migration.define_target'>,
  ctx: TaskContext,
) {
  const incoming = guests.incoming(p.migration_id);
  if (!incoming.checksum || !incoming.endpoint)
    throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this migration', false);
  const source = sourceAt(p.migration_id, incoming, incoming.endpoint);
  if (!incoming.password_received) {
    // Taken now that the source is stopped (cold) or about to hand over (live): what it has is final.
    receivePasswordHandoff(guests, incoming, await pullPasswordHandoff(source, ctx.signal));
  }
  await receiveSetupHandoff(guests, incoming, source, ctx.signal);
  if (p.final_sync) {
    // A cold move: the source is stopped now, its disk final; what changed since the first copy comes over.
    if (!incoming.defined) {
      ctx.progress(10, 'pulling the final disk from the source');
      incoming.checksum = await pullDisk(source, guestFiles(incoming.dir).disk, ctx.signal);
      await pullFinalVolumes(guests, p.migration_id, incoming, ctx.signal);
    }
  } else {
    await awaitMemory(guests, p.instance_id, incoming, source, p.post_copy === true);
  }
  incoming.defined = true;
  guests.save();
  return { defined: true };
}

/**
 * A live move: the guest is started waiting for its memory, its disks exported over NBD for the
 * source to mirror into, both listening only for TLS under the move's key (transport.ts), and the
 * source told where; a repeat says it again. A move that may use post-copy readies the guest for it
 * first (convergence.ts).
 */
async function awaitMemory(
  guests: QemuGuests,
  instanceId: string,
  incoming: QemuIncoming,
  source: Source,
  postCopy: boolean,
): Promise<void> {
  const { dir } = incoming;
  const status = await runStatus(dir);
  if (status === 'inmigrate' && incoming.listening) return announceIncoming(source, incoming.listening);
  if (status === 'inmigrate') {
    // Its agent stopped while it was being set to listen: it starts over.
    await killGuest(dir);
  } else if (status !== undefined) {
    if (status !== 'running')
      throw new DriverFailure('TARGET_NOT_WAITING', `the target guest is ${status}`, true);
    return;
  }
  const host = guests.config.AGENT_QEMU_LISTEN_HOST;
  const listening = { host, migration_port: await freePort(host), nbd_port: await freePort(host) };
  const volumes = arrivingVolumes(guests, incoming);
  await guests.launch(instanceId, dir, { ...incoming, image: incoming.image ?? '', volumes }, true);
  // Each disk exported under its node's name, for the source to mirror into (live-migration.ts).
  const nodes = ['root', ...volumes.map((v) => volumeNode(v.slot))];
  await Qmp.with(guestFiles(dir).qmp, async (qmp) => {
    const tls = await addQemuCredentials(qmp, guests.config.AGENT_STATE_DIR, source, 'server');
    await qmp.execute('migrate-set-parameters', { 'tls-creds': tls });
    if (postCopy) await readyPostCopy(qmp);
    await qmp.execute('migrate-incoming', { uri: `tcp:${host}:${listening.migration_port}` });
    await qmp.execute('nbd-server-start', {
      addr: { type: 'inet', data: { host, port: String(listening.nbd_port) } },
      'tls-creds': tls,
    });
    for (const node of nodes)
      await qmp.execute('block-export-add', { type: 'nbd', id: node, 'node-name': node, writable: true });
  }).catch(async (error: Error) => {
    // Half set up, it would listen for nothing (or in the clear): a repeat starts it afresh.
    await killGuest(dir);
    throw new DriverFailure(
      'TARGET_NOT_WAITING',
      `the target guest could not listen: ${error.message}`,
      true,
    );
  });
  incoming.listening = listening;
  guests.save();
  await announceIncoming(source, listening);
}

/** The arrived guest becomes an instance of this host, started if it ran on the source. */
export async function startTarget(guests: QemuGuests, p: AgentTaskParams<'migration.start_target'>) {
  const incoming = guests.incoming(p.migration_id);
  if (!incoming.defined)
    throw new DriverFailure('TARGET_NOT_DEFINED', 'the target guest is not defined', false);
  const instance: QemuInstance = {
    dir: incoming.dir,
    hostname: incoming.hostname,
    cpu_cores: incoming.cpu_cores,
    memory_mb: incoming.memory_mb,
    disk_mb: incoming.disk_mb,
    image: incoming.image ?? '',
    ...(incoming.addresses ? { addresses: incoming.addresses } : {}),
    ...(incoming.network ? { network: incoming.network } : {}),
    ...(incoming.firewall ? { firewall: incoming.firewall } : {}),
    ...(incoming.plugged ? { plugged: incoming.plugged } : {}),
    ...(incoming.ceiling && { ceiling: incoming.ceiling }),
    ...(incoming.booted_ceiling !== undefined && { booted_ceiling: incoming.booted_ceiling }),
    ...(incoming.hot_added && { hot_added: incoming.hot_added }),
    created_at: new Date().toISOString(),
    last_rebuild_id: null,
    ...(incoming.password_key ? { password_key: incoming.password_key } : {}),
  };
  const status = await runStatus(incoming.dir);
  if (status === 'inmigrate')
    throw new DriverFailure('MIGRATION_NOT_FINISHED', 'the guest’s memory has not all arrived', true);
  if (status !== undefined) {
    // Arrived live: the mirror's entrance is closed now that the source has let go, and the move's
    // key goes (nothing listens under it any more).
    await Qmp.with(guestFiles(incoming.dir).qmp, async (qmp) => {
      await qmp.execute('nbd-server-stop').catch(() => undefined);
      await removeQemuCredentials(qmp, guests.config.AGENT_STATE_DIR, p.migration_id);
    }).catch(() => undefined);
  }
  // Whatever the guest's QEMU did, neither the key file nor the key stays: the move is over here.
  await removeQemuCredentials(undefined, guests.config.AGENT_STATE_DIR, p.migration_id);
  if (incoming.transport_secret) {
    delete incoming.transport_secret;
    guests.save();
  }
  if (!incoming.started) {
    keepRetainedEntry(guests, incoming);
    guests.state.instances[p.instance_id] = instance;
    landVolumes(guests, incoming);
    incoming.started = true;
    guests.save();
  }
  const arrived = guests.state.instances[p.instance_id]!;
  if (p.start && status === undefined) await guests.boot(p.instance_id, arrived);
  return { power_state: await guests.powerState(arrived.dir) };
}

export async function discardTarget(guests: QemuGuests, p: AgentTaskParams<'migration.discard_target'>) {
  const incoming = guests.state.incoming[p.migration_id];
  if (!incoming) return { discarded: false };
  await killGuest(incoming.dir);
  await removeQemuCredentials(undefined, guests.config.AGENT_STATE_DIR, p.migration_id);
  rmSync(incoming.dir, { recursive: true, force: true });
  discardVolumes(guests, incoming);
  if (guests.state.instances[p.instance_id]?.dir === incoming.dir)
    delete guests.state.instances[p.instance_id];
  restoreRetained(guests, incoming);
  if (!guests.state.instances[p.instance_id]) await guests.bridgedNetwork?.unwire(p.instance_id);
  delete guests.state.incoming[p.migration_id];
  guests.save();
  return { discarded: true };
}

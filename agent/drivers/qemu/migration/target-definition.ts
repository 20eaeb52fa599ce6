import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { volumeNode } from '../disks/volume-slots.js';
import { freePort, guestFiles, killGuest, runStatus } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import type { QemuIncoming } from '../guests/state.js';
import { readyPostCopy } from './convergence.js';
import { arrivingVolumes, pullFinalVolumes } from './migration-volumes.js';
import { receivePasswordHandoff } from './password-handoff.js';
import { receiveSetupHandoff } from './setup-handoff.js';
import { announceIncoming, pullDisk, pullPasswordHandoff, type Source, sourceAt } from './transfer-pulls.js';
import { addQemuCredentials } from './transport.js';

// The arriving guest defined: its handoffs taken, and then a cold move's final disks pulled or a live
// move's guest started waiting for its memory.

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

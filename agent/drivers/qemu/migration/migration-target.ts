import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure } from '../../driver.js';
import { arrivalRoom } from '../../host-capacity.js';
import { killGuest } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { expectedVolumes } from './incoming-volumes.js';
import { discardVolumes } from './migration-volumes.js';
import { keepRetainedApart, restoreRetained } from './retained-copies.js';
import { removeQemuCredentials } from './transport.js';

// A migration on its target: the arriving guest has a directory of its own under incoming/ until
// it starts and becomes an instance here (target-start.ts), or is discarded.

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

import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure } from '../../driver.js';
import { guestFiles, runStatus } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import type { QemuInstance } from '../guests/state.js';
import { landVolumes } from './migration-volumes.js';
import { keepRetainedEntry } from './retained-copies.js';
import { removeQemuCredentials } from './transport.js';

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
